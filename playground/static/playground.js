"use strict";
// The playground page: a Discord-like client for the local emulator. It shows what the
// selected player sees, and sends that player's slash commands, clicks and picks to the
// emulator, which turns them into real Discord interactions for the bot.

const EPHEMERAL_NOTE = "Only you can see this";
const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link" };
const PLAYER_COLOURS = ["#5865f2", "#23a55a", "#e8a23a", "#e5484d", "#8e6ad8", "#1fa2b8"];
const OPTION = { SUBCOMMAND: 1, GROUP: 2, STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6,
  CHANNEL: 7, MENTIONABLE: 9, NUMBER: 10 };
const OPTION_TYPE_NAMES = { 3: "text", 4: "whole number", 5: "True or False", 6: "member",
  7: "channel", 9: "member", 10: "number" };
const GROUP_WINDOW_MS = 5 * 60 * 1000;
const IMAGE_BOX = { width: 560, height: 520 };

// Ids are new every time the playground starts; names are remembered across restarts.
const remembered = {
  viewer: localStorage.getItem("playground-viewer") || "",
  channel: localStorage.getItem("playground-channel") || "",
};

const state = {
  world: null,
  viewer: "",
  channel: "",
  messages: new Map(),
  dismissed: new Set(),
  attention: new Set(),
  unread: new Set(),
  commands: [],
  events: null,
  stale: false,
};

const $ = (selector) => document.querySelector(selector);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- connection ------------------------------------------------------------------------

function connect() {
  if (state.events) state.events.close();
  const query = remembered.viewer ? `?viewer=${encodeURIComponent(remembered.viewer)}` : "";
  const events = new EventSource(`/api/events${query}`);
  state.events = events;
  events.addEventListener("snapshot", (event) => applySnapshot(JSON.parse(event.data)));
  events.addEventListener("message", (event) => upsertMessage(JSON.parse(event.data)));
  events.addEventListener("attention", (event) => {
    const { player } = JSON.parse(event.data);
    if (player !== state.viewer) {
      state.attention.add(player);
      renderPlayers();
    }
  });
  events.addEventListener("activity", (event) => showActivity(JSON.parse(event.data)));
  events.addEventListener("locale", (event) => {
    const { player, locale } = JSON.parse(event.data);
    setLocale(player, locale);
  });
  events.onopen = () => { $("#connection").hidden = true; };
  events.onerror = () => { $("#connection").hidden = false; };
}

function applySnapshot(world) {
  state.world = world;
  state.viewer = world.viewer;
  remember("viewer", playerName(state.viewer));
  const channel = world.channels.find((c) => c.id === state.channel || c.name === remembered.channel);
  state.channel = (channel || world.channels[0]).id;
  state.commands = leafCommands(world.commands, viewerLocale());
  state.messages = new Map(world.messages.map((message) => [message.id, message]));
  state.attention.delete(state.viewer);
  document.body.dataset.viewer = playerName(state.viewer);
  renderAll();
  showActivity(world.activity);
}

// While the bot handles someone's action it "types"; `actionsDone` lets a test (or a
// curious person) see that the page has caught up with every finished action.
function showActivity(activity) {
  $("#typing").hidden = activity.pending === 0;
  document.body.dataset.actionsDone = String(activity.done);
}

function remember(key, name) {
  remembered[key] = name;
  localStorage.setItem(`playground-${key}`, name);
}

function switchViewer(playerId) {
  if (playerId === state.viewer) return;
  state.attention.delete(playerId);
  remember("viewer", playerName(playerId));
  closeMenus();
  connect();
}

function switchChannel(channelId) {
  state.channel = channelId;
  state.unread.delete(channelId);
  remember("channel", state.world.channels.find((c) => c.id === channelId).name);
  renderAll();
}

// ---- the world -------------------------------------------------------------------------

function playerName(id) {
  const player = state.world && state.world.players.find((p) => p.id === id);
  if (player) return player.name;
  if (state.world && state.world.bot.id === id) return state.world.bot.name;
  return "unknown-user";
}

function playerColour(id) {
  const index = state.world.players.findIndex((p) => p.id === id);
  return PLAYER_COLOURS[(index >= 0 ? index : 0) % PLAYER_COLOURS.length];
}

const markdownContext = {
  userName: playerName,
  channelName: (id) => {
    const channel = state.world.channels.find((c) => c.id === id);
    return channel ? channel.name : "unknown-channel";
  },
  get viewer() { return state.viewer; },
};

function renderAll() {
  renderChannels();
  renderPlayers();
  const channel = state.world.channels.find((c) => c.id === state.channel);
  $("#channel-title").textContent = channel.name;
  $("#composer-input").placeholder = `Message #${channel.name} (type / for commands)`;
  $("#typing-name").textContent = state.world.bot.name;
  $("#dm-title").textContent = `${state.world.bot.name} → ${playerName(state.viewer)}`;
  renderViews();
  updateComposer();
}

function renderChannels() {
  const list = $("#channel-list");
  list.replaceChildren(...state.world.channels.map((channel) => {
    const item = element("li", channel.id === state.channel ? "channel active" : "channel");
    if (state.unread.has(channel.id)) item.classList.add("unread");
    item.append(element("span", "hash", "#"), element("span", "", channel.name));
    item.addEventListener("click", () => switchChannel(channel.id));
    return item;
  }));
}

function renderPlayers() {
  const list = $("#player-list");
  list.replaceChildren(...state.world.players.map((player) => {
    const selected = player.id === state.viewer;
    const item = element("li", selected ? "player selected" : "player");
    item.dataset.player = player.name;
    item.setAttribute("role", "button");
    item.title = selected ? "You are playing as this member" : `Play as ${player.name}`;
    const avatar = avatarFor(player.id, player.name);
    if (state.attention.has(player.id)) avatar.append(element("span", "badge", "!"));
    item.append(avatar, element("span", "name", player.name));
    if (player.admin) {
      const crown = element("span", "crown", "♛");
      crown.title = "Server admin: may use every command";
      item.append(crown);
    }
    if (selected) item.append(element("span", "you", "you"));
    item.addEventListener("click", () => switchViewer(player.id));
    return item;
  }));
  const me = state.world.players.find((p) => p.id === state.viewer);
  $("#me-avatar").replaceWith(Object.assign(avatarFor(me.id, me.name), { id: "me-avatar" }));
  $("#me-name").textContent = me.name;
  $("#me-locale").value = me.locale;
}

// Each member's Discord client has a language: the bot answers him privately in it, and
// a German client shows (and takes) the commands' German names.
async function switchLocale(locale) {
  const answer = await post("/api/locale", { viewer: state.viewer, locale });
  if (answer.error) {
    showComposerError(answer.error);
    return;
  }
  setLocale(state.viewer, locale);
}

function setLocale(playerId, locale) {
  const player = state.world.players.find((p) => p.id === playerId);
  if (!player) return;
  player.locale = locale;
  if (playerId === state.viewer) state.commands = leafCommands(state.world.commands, locale);
  renderPlayers();
  updateComposer();
}

// The bot's avatar is a die drawn in SVG, so it shows without an emoji font.
const DIE_SVG = '<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="3" width="18" '
  + 'height="18" rx="4" fill="white"/><g fill="#3b3f9e"><circle cx="8" cy="8" r="1.8"/>'
  + '<circle cx="12" cy="12" r="1.8"/><circle cx="16" cy="16" r="1.8"/></g></svg>';

function avatarFor(id, name, isBot) {
  if (isBot) {
    const avatar = element("span", "avatar bot");
    avatar.innerHTML = DIE_SVG;
    return avatar;
  }
  const avatar = element("span", "avatar", name[0].toUpperCase());
  avatar.style.background = playerColour(id);
  return avatar;
}

// ---- messages --------------------------------------------------------------------------

function sortedMessages(filter) {
  return [...state.messages.values()]
    .filter((m) => filter(m) && !state.dismissed.has(m.id))
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

function renderList(container, filter) {
  const stick = isNearBottom(container);
  const messages = sortedMessages(filter);
  const nodes = messages.map((message, index) => renderMessage(message, messages[index - 1]));
  if (!nodes.length) nodes.push(emptyNote(container));
  container.replaceChildren(...nodes);
  if (stick) container.scrollTop = container.scrollHeight;
}

function emptyNote(container) {
  if (container.id === "dm-messages") {
    return element("div", "empty", "No direct messages yet. Barbu hands arrive here.");
  }
  const note = element("div", "empty");
  note.innerHTML = "This channel is empty. Start a game: type <code>/bann new computer:normal</code>"
    + " or <code>/barbu new computers:3</code>.";
  return note;
}

const CHANNEL_VIEW = {
  container: () => $("#messages"),
  filter: (m) => !m.dm && m.channel === state.channel,
};
const DM_VIEW = { container: () => $("#dm-messages"), filter: (m) => m.dm };

function renderViews() {
  for (const view of [CHANNEL_VIEW, DM_VIEW]) renderList(view.container(), view.filter);
}

// Redraw only what changed, so a menu someone has open elsewhere stays open.
function upsertMessage(message) {
  if (message.deleted) state.messages.delete(message.id);
  else state.messages.set(message.id, message);
  const view = message.dm ? DM_VIEW : CHANNEL_VIEW;
  if (!message.dm && message.channel !== state.channel && !message.deleted) {
    state.unread.add(message.channel);
    renderChannels();
  }
  if (!view.filter(message) || state.dismissed.has(message.id)) return;
  const container = view.container();
  const existing = container.querySelector(`[data-id="${message.id}"]`);
  const messages = sortedMessages(view.filter);
  const index = messages.findIndex((m) => m.id === message.id);
  const isLast = index >= 0 && index === messages.length - 1;
  const stick = isNearBottom(container);
  if (existing && existing.querySelector(".select.open")) {
    state.stale = true;
    return;
  }
  if (existing && !message.deleted) {
    existing.replaceWith(renderMessage(message, messages[index - 1]));
  } else if (!existing && isLast) {
    container.querySelector(".empty")?.remove();
    container.append(renderMessage(message, messages[index - 1]));
  } else if (container.querySelector(".select.open")) {
    state.stale = true;
    return;
  } else {
    renderList(container, view.filter);
  }
  if (stick) container.scrollTop = container.scrollHeight;
}

function isNearBottom(container) {
  return container.scrollHeight - container.scrollTop - container.clientHeight < 80;
}

function continues(message, previous) {
  if (!previous || message.command || previous.author.id !== message.author.id) return false;
  if (message.ephemeral !== previous.ephemeral) return false;
  return Date.parse(message.timestamp) - Date.parse(previous.timestamp) < GROUP_WINDOW_MS;
}

function renderMessage(message, previous) {
  const grouped = continues(message, previous);
  const node = element("article", grouped ? "message grouped" : "message");
  node.dataset.id = message.id;
  if (message.ephemeral) node.classList.add("ephemeral");
  if (message.pinged.includes(state.viewer)) node.classList.add("mentions-me");
  if (message.command) node.append(commandLine(message.command));
  const { author } = message;
  const gutter = element("div", "gutter");
  if (grouped) {
    gutter.append(element("span", "hover-time", clock(message.timestamp)));
  } else {
    gutter.append(avatarFor(author.id, author.name, author.bot));
  }
  const body = element("div", "body");
  if (!grouped) body.append(messageHeader(message));
  if (message.loading) {
    body.append(element("div", "thinking", `${author.name} is thinking`));
  } else {
    if (message.content) {
      const content = element("div", "content");
      content.innerHTML = DiscordMarkdown.render(message.content, markdownContext);
      if (message.edited) {
        (content.lastElementChild || content).append(element("span", "edited", " (edited)"));
      }
      body.append(content);
    }
    const embedded = new Set();
    for (const embed of message.embeds) body.append(renderEmbed(embed, message, embedded));
    body.append(...renderAttachments(message, embedded));
    if (message.components.length) body.append(renderComponents(message));
  }
  if (message.ephemeral) body.append(ephemeralFooter(message));
  node.append(gutter, body);
  return node;
}

function commandLine(command) {
  const line = element("div", "command-line");
  line.append(element("span", "spine"));
  const who = state.world.players.find((p) => p.name === command.user);
  if (who) line.append(avatarFor(who.id, who.name));
  line.append(element("span", "who", command.user), element("span", "", " used "),
    element("span", "command-name", command.command));
  return line;
}

function messageHeader(message) {
  const header = element("div", "header");
  const name = element("span", "author", message.author.name);
  if (!message.author.bot) name.style.color = playerColour(message.author.id);
  header.append(name);
  if (message.author.bot) header.append(element("span", "app-tag", "APP"));
  header.append(element("span", "time", `Today at ${clock(message.timestamp)}`));
  return header;
}

function clock(iso) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function ephemeralFooter(message) {
  const footer = element("div", "ephemeral-note");
  footer.append(element("span", "eye", "👁"), element("span", "", ` ${EPHEMERAL_NOTE} · `));
  const dismiss = element("a", "dismiss", "Dismiss message");
  dismiss.href = "#";
  dismiss.addEventListener("click", (event) => {
    event.preventDefault();
    state.dismissed.add(message.id);
    renderAll();
  });
  footer.append(dismiss);
  return footer;
}

// Discord shows images the bot uploaded; anything on another host is not loaded.
function localImage(url, message, embedded) {
  if (!url) return null;
  let match = /^attachment:\/\/(.+)$/.exec(url);
  if (match) {
    const attachment = message.attachments.find((a) => a.filename === match[1]);
    if (attachment) embedded.add(attachment.id);
    return attachment || null;
  }
  match = /^https:\/\/(?:cdn\.discordapp\.com|media\.discordapp\.net)\/attachments\/\d+\/(\d+)\//.exec(url);
  if (match) {
    const attachment = message.attachments.find((a) => a.id === match[1]);
    if (attachment) embedded.add(attachment.id);
    return attachment || null;
  }
  return null;
}

// Pictures get their final size before they load, so the list does not jump (and a view
// scrolled to the newest message stays there).
function imageOf(attachment, className) {
  const image = element("img", className);
  image.src = attachment.url;
  image.alt = attachment.description || attachment.filename;
  const { width, height } = attachment;
  if (width && height) {
    const shown = Math.min(width, IMAGE_BOX.width, (IMAGE_BOX.height * width) / height);
    image.style.width = `${Math.round(shown)}px`;
    image.style.aspectRatio = `${width} / ${height}`;
  }
  image.addEventListener("click", () => openLightbox(attachment.url));
  return image;
}

function renderEmbed(embed, message, embedded) {
  const box = element("div", "embed");
  if (embed.color !== undefined && embed.color !== null) {
    box.style.borderLeftColor = `#${embed.color.toString(16).padStart(6, "0")}`;
  }
  const main = element("div", "embed-main");
  if (embed.author && embed.author.name) main.append(element("div", "embed-author", embed.author.name));
  if (embed.title) main.append(element("div", "embed-title", embed.title));
  if (embed.description) {
    const description = element("div", "embed-description");
    description.innerHTML = DiscordMarkdown.render(embed.description, markdownContext);
    main.append(description);
  }
  if (embed.fields && embed.fields.length) {
    const fields = element("div", "embed-fields");
    for (const field of embed.fields) {
      const cell = element("div", field.inline ? "embed-field inline" : "embed-field");
      const value = element("div", "embed-field-value");
      value.innerHTML = DiscordMarkdown.render(field.value, markdownContext);
      cell.append(element("div", "embed-field-name", field.name), value);
      fields.append(cell);
    }
    main.append(fields);
  }
  const image = localImage(embed.image && embed.image.url, message, embedded);
  if (image) main.append(imageOf(image, "embed-image"));
  if (embed.footer && embed.footer.text) main.append(element("div", "embed-footer", embed.footer.text));
  box.append(main);
  const thumbnail = localImage(embed.thumbnail && embed.thumbnail.url, message, embedded);
  if (thumbnail) box.append(imageOf(thumbnail, "embed-thumbnail"));
  return box;
}

function renderAttachments(message, embedded) {
  return message.attachments.filter((a) => !embedded.has(a.id)).map((attachment) => {
    if (attachment.content_type.startsWith("image/")) return imageOf(attachment, "attachment-image");
    const file = element("a", "file");
    file.href = attachment.url;
    file.download = attachment.filename;
    file.append(element("span", "file-icon", "📄"), element("span", "file-name", attachment.filename),
      element("span", "file-size", `${(attachment.bytes / 1024).toFixed(1)} KB`));
    return file;
  });
}

// ---- buttons and select menus ----------------------------------------------------------

function renderComponents(message) {
  const block = element("div", "components");
  for (const row of message.components) {
    const line = element("div", "component-row");
    for (const component of row.components || []) {
      if (component.type === 2) line.append(renderButton(component, message, block));
      else line.append(renderSelect(component, message, block));
    }
    block.append(line);
  }
  return block;
}

function renderButton(component, message, block) {
  const style = BUTTON_STYLES[component.style] || "secondary";
  const button = element(style === "link" ? "a" : "button", `btn ${style}`);
  if (component.emoji && component.emoji.name) button.append(element("span", "emoji", component.emoji.name));
  if (component.label) button.append(element("span", "label", component.label));
  if (style === "link") {
    button.href = component.url;
    button.target = "_blank";
    button.rel = "noreferrer";
    button.append(element("span", "external", "↗"));
    return button;
  }
  button.type = "button";
  button.disabled = Boolean(component.disabled);
  button.addEventListener("click", () => {
    button.classList.add("busy");
    interact("click", { message: message.id, custom_id: component.custom_id }, block)
      .finally(() => button.classList.remove("busy"));
  });
  return button;
}

function renderSelect(component, message, block) {
  const select = element("div", "select");
  select.dataset.customId = component.custom_id;
  const options = component.options || [];
  const defaults = options.filter((option) => option.default);
  const closed = element("button", "select-closed");
  closed.type = "button";
  closed.disabled = Boolean(component.disabled) || component.type !== 3;
  const summary = defaults.length
    ? defaults.map((option) => option.label).join(", ")
    : component.placeholder || "Make a selection";
  closed.append(element("span", defaults.length ? "select-value" : "select-placeholder", summary),
    element("span", "chevron", "⌄"));
  select.append(closed);
  const multiple = (component.max_values || 1) > 1;
  const chosen = new Set(defaults.map((option) => option.value));
  const list = element("div", "select-menu");
  list.setAttribute("role", "listbox");
  for (const option of options) {
    const item = element("div", "select-option");
    item.setAttribute("role", "option");
    item.dataset.value = option.value;
    if (multiple) item.append(element("span", chosen.has(option.value) ? "check on" : "check"));
    if (option.emoji && option.emoji.name) item.append(element("span", "emoji", option.emoji.name));
    const text = element("span", "option-text");
    text.append(element("span", "option-label", option.label));
    if (option.description) text.append(element("span", "option-description", option.description));
    item.append(text);
    item.addEventListener("click", (event) => {
      event.stopPropagation();
      if (!multiple) {
        submitSelect(select, component, message, block, [option.value]);
        return;
      }
      if (chosen.has(option.value)) chosen.delete(option.value);
      else if (chosen.size < component.max_values) chosen.add(option.value);
      item.querySelector(".check").classList.toggle("on", chosen.has(option.value));
    });
    list.append(item);
  }
  select.append(list);
  closed.addEventListener("click", (event) => {
    event.stopPropagation();
    const wasOpen = select.classList.contains("open");
    closeMenus();
    if (wasOpen) return;
    select.classList.add("open");
    const room = select.closest(".messages").getBoundingClientRect();
    const below = room.bottom - closed.getBoundingClientRect().bottom;
    select.classList.toggle("upward", below < Math.min(list.scrollHeight, 320));
    select.onclose = multiple ? () => {
      const values = [...chosen];
      const unchanged = values.length === defaults.length
        && defaults.every((option) => chosen.has(option.value));
      if (!unchanged && values.length >= (component.min_values ?? 1)) {
        submitSelect(select, component, message, block, values);
      }
    } : null;
  });
  return select;
}

function submitSelect(select, component, message, block, values) {
  select.classList.remove("open");
  select.onclose = null;
  renderIfStale();
  select.classList.add("busy");
  interact("select", { message: message.id, custom_id: component.custom_id, values }, block)
    .finally(() => select.classList.remove("busy"));
}

function closeMenus() {
  for (const select of document.querySelectorAll(".select.open")) {
    select.classList.remove("open");
    if (select.onclose) select.onclose();
    select.onclose = null;
  }
  renderIfStale();
}

// Changes that arrived while a menu was open were held back; show them now.
function renderIfStale() {
  if (!state.stale || document.querySelector(".select.open")) return;
  state.stale = false;
  renderViews();
}

async function interact(kind, fields, block) {
  const answer = await post(`/api/${kind}`, { viewer: state.viewer, ...fields });
  if (answer.error && block) {
    const failure = block.querySelector(".failed") || element("div", "failed");
    failure.textContent = answer.error;
    failure.title = answer.detail || "";
    block.append(failure);
  }
  return answer;
}

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return await response.json();
  } catch (problem) {
    return { error: "The playground did not answer; is it still running?" };
  }
}

// ---- the message box and its slash commands --------------------------------------------

// The commands as a client in `locale` shows them: Discord sends the bot the canonical
// names (`command`, each option's `canonical`) whatever names the member typed.
function leafCommands(commands, locale) {
  const shown = (node, key) => (node[`${key}_localizations`] || {})[locale] || node[key];
  const leaves = [];
  const walk = (node, path, typed) => {
    const children = (node.options || []).filter(
      (option) => option.type === OPTION.SUBCOMMAND || option.type === OPTION.GROUP);
    if (!children.length) {
      const options = (node.options || []).map((option) => ({ ...option,
        canonical: option.name, name: shown(option, "name"), description: shown(option, "description"),
        choices: (option.choices || []).map((choice) => ({ ...choice, name: shown(choice, "name") })) }));
      leaves.push({ path: typed.join(" "), command: path.join(" "),
        description: shown(node, "description"), options });
      return;
    }
    for (const child of children) walk(child, [...path, child.name], [...typed, shown(child, "name")]);
  };
  for (const command of commands) walk(command, [command.name], [shown(command, "name")]);
  return leaves.sort((a, b) => a.path.localeCompare(b.path));
}

function viewerLocale() {
  const me = state.world.players.find((p) => p.id === state.viewer);
  return me ? me.locale : "en-US";
}

// What the typed text means: which command, which options so far, what is being typed.
function parseCommand(text) {
  if (!text.startsWith("/")) return null;
  const typed = text.slice(1);
  let leaf = null;
  for (const command of state.commands) {
    if (typed === command.path || typed.startsWith(`${command.path} `)) {
      if (!leaf || command.path.length > leaf.path.length) leaf = command;
    }
  }
  if (!leaf) return { leaf: null, typed };
  const rest = typed.slice(leaf.path.length);
  const names = leaf.options.map((option) => option.name);
  const values = {};
  const pattern = new RegExp(`(?:^|\\s)(${names.map(escapeRegExp).join("|") || "(?!)"}):`, "g");
  const marks = [...rest.matchAll(pattern)];
  marks.forEach((mark, index) => {
    const start = mark.index + mark[0].length;
    const end = index + 1 < marks.length ? marks[index + 1].index : rest.length;
    values[mark[1]] = rest.slice(start, end);
  });
  const lastMark = marks[marks.length - 1];
  const stray = (marks.length ? rest.slice(0, marks[0].index) : rest).trim();
  const editing = lastMark && !/\s$/.test(rest) ? lastMark[1] : null;
  const tail = /(\S*)$/.exec(rest)[1];
  // Text right after the command fills its first required option, as in Discord's
  // client, which puts the cursor there: "/bann move 4>5:N" is "notation:4>5:N".
  const open = leaf.options.find((option) => option.required && !(option.name in values));
  const bare = stray && open ? { name: open.name, value: stray } : null;
  return { leaf, values, editing, stray, bare,
    word: editing ? "" : (/\s$/.test(rest) ? "" : tail) };
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function valueChoices(option) {
  if (option.choices && option.choices.length) {
    return option.choices.map((choice) => ({ label: choice.name, insert: choice.name,
      detail: String(choice.value) }));
  }
  if (option.type === OPTION.BOOLEAN) {
    return [{ label: "True", insert: "True" }, { label: "False", insert: "False" }];
  }
  if (option.type === OPTION.USER || option.type === OPTION.MENTIONABLE) {
    return state.world.players.map((p) => ({ label: `@${p.name}`, insert: `@${p.name}`, player: p }));
  }
  if (option.type === OPTION.CHANNEL) {
    return state.world.channels.map((c) => ({ label: `#${c.name}`, insert: `#${c.name}` }));
  }
  return [];
}

function typedValue(option, raw) {
  const text = raw.trim();
  if (!text) return { error: `${option.name}: this field is required` };
  if (option.choices && option.choices.length) {
    const choice = option.choices.find((c) => c.name.toLowerCase() === text.toLowerCase()
      || String(c.value).toLowerCase() === text.toLowerCase());
    if (!choice) return { error: `${option.name}: pick one of ${option.choices.map((c) => c.name).join(", ")}` };
    return { value: choice.value };
  }
  switch (option.type) {
    case OPTION.BOOLEAN: {
      const yes = /^(true|yes)$/i.test(text);
      if (!yes && !/^(false|no)$/i.test(text)) return { error: `${option.name}: must be True or False` };
      return { value: yes };
    }
    case OPTION.INTEGER:
    case OPTION.NUMBER: {
      const number = Number(text);
      const whole = option.type === OPTION.INTEGER;
      if (!Number.isFinite(number) || (whole && !Number.isInteger(number))) {
        return { error: `${option.name}: must be a ${OPTION_TYPE_NAMES[option.type]}` };
      }
      if ((option.min_value !== undefined && number < option.min_value)
        || (option.max_value !== undefined && number > option.max_value)) {
        return { error: `${option.name}: must be between ${option.min_value ?? "…"} and ${option.max_value ?? "…"}` };
      }
      return { value: number };
    }
    case OPTION.USER:
    case OPTION.MENTIONABLE: {
      const name = text.replace(/^@/, "").toLowerCase();
      const player = state.world.players.find((p) => p.name === name);
      return player ? { value: player.id } : { error: `${option.name}: no member called ${text}` };
    }
    case OPTION.CHANNEL: {
      const name = text.replace(/^#/, "").toLowerCase();
      const channel = state.world.channels.find((c) => c.name === name);
      return channel ? { value: channel.id } : { error: `${option.name}: no channel #${name}` };
    }
    default:
      if (option.min_length !== undefined && text.length < option.min_length) {
        return { error: `${option.name}: at least ${option.min_length} characters` };
      }
      if (option.max_length !== undefined && text.length > option.max_length) {
        return { error: `${option.name}: at most ${option.max_length} characters` };
      }
      return { value: text };
  }
}

const composer = { suggestions: [], highlighted: 0, moved: false };

function suggestionsFor(text) {
  const parsed = parseCommand(text);
  if (!parsed) return [];
  if (!parsed.leaf) {
    const typed = parsed.typed.toLowerCase();
    return state.commands
      .filter((command) => command.path.startsWith(typed) || (typed && command.path.includes(typed)))
      .map((command) => ({ kind: "command", label: `/${command.path}`, detail: command.description,
        apply: () => `/${command.path} ` }));
  }
  const { leaf, values, editing, word } = parsed;
  if (editing) {
    const option = leaf.options.find((o) => o.name === editing);
    const partial = values[editing].toLowerCase();
    const base = text.slice(0, text.length - values[editing].length);
    return valueChoices(option)
      .filter((choice) => choice.insert.toLowerCase().startsWith(partial)
        || choice.insert.toLowerCase().replace(/^[@#]/, "").startsWith(partial))
      .filter((choice) => choice.insert.toLowerCase() !== partial)
      .map((choice) => ({ kind: "value", label: choice.label, detail: choice.detail || "",
        player: choice.player, apply: () => `${base}${choice.insert} ` }));
  }
  const base = text.slice(0, text.length - word.length);
  return leaf.options
    .filter((option) => !(option.name in values) && option.name.startsWith(word.toLowerCase()))
    .map((option) => ({ kind: "option", label: option.name,
      detail: `${option.required ? "required · " : ""}${option.description}`,
      apply: () => `${base}${option.name}:` }));
}

function updateComposer() {
  const input = $("#composer-input");
  const text = input.value;
  composer.suggestions = suggestionsFor(text);
  composer.highlighted = Math.min(composer.highlighted, Math.max(composer.suggestions.length - 1, 0));
  const box = $("#suggestions");
  const parsed = parseCommand(text);
  box.hidden = !composer.suggestions.length;
  box.replaceChildren();
  if (composer.suggestions.length) {
    const title = parsed && parsed.leaf ? `/${parsed.leaf.path}` : `Commands of ${state.world.bot.name}`;
    box.append(element("div", "suggestions-title", title));
    composer.suggestions.forEach((suggestion, index) => {
      const row = element("div", index === composer.highlighted ? "suggestion active" : "suggestion");
      row.setAttribute("role", "option");
      if (suggestion.kind === "command") row.append(avatarFor(state.world.bot.id, "", true));
      if (suggestion.player) row.append(avatarFor(suggestion.player.id, suggestion.player.name));
      row.append(element("span", `suggestion-label ${suggestion.kind}`, suggestion.label),
        element("span", "suggestion-detail", suggestion.detail || ""));
      row.addEventListener("mousedown", (event) => {
        event.preventDefault();
        applySuggestion(index);
      });
      box.append(row);
    });
  }
  renderCommandNote(parsed);
}

function renderCommandNote(parsed) {
  const note = $("#composer-note");
  note.replaceChildren();
  note.className = "";
  if (!parsed || !parsed.leaf) {
    note.hidden = true;
    return;
  }
  note.hidden = false;
  note.append(element("span", "note-command", `/${parsed.leaf.path}`));
  for (const option of parsed.leaf.options) {
    const filled = option.name in parsed.values || (parsed.bare && parsed.bare.name === option.name);
    const pill = element("span", `pill${filled ? " filled" : ""}${option.required ? " required" : ""}`,
      option.name);
    pill.title = `${option.description} (${OPTION_TYPE_NAMES[option.type] || "value"})`;
    note.append(pill);
  }
  const focus = parsed.leaf.options.find((o) => o.name === parsed.editing);
  note.append(element("span", "note-description",
    focus ? `${focus.name}: ${focus.description}` : parsed.leaf.description));
}

function applySuggestion(index) {
  const suggestion = composer.suggestions[index];
  if (!suggestion) return;
  const input = $("#composer-input");
  input.value = suggestion.apply();
  composer.highlighted = 0;
  composer.moved = false;
  input.focus();
  updateComposer();
}

function showComposerError(text) {
  const note = $("#composer-note");
  note.hidden = false;
  note.className = "error";
  note.replaceChildren(element("span", "", text));
}

async function send() {
  const input = $("#composer-input");
  const text = input.value.trim();
  if (!text) return;
  if (!text.startsWith("/")) {
    input.value = "";
    updateComposer();
    const answer = await post("/api/say", { viewer: state.viewer, channel: state.channel, text });
    if (answer.error) showComposerError(answer.error);
    return;
  }
  const parsed = parseCommand(input.value);
  if (!parsed.leaf) {
    showComposerError(`${state.world.bot.name} has no command ${text.split(" ")[0]}; type / to see them.`);
    return;
  }
  if (parsed.stray && !parsed.bare) {
    showComposerError(`Options are written name:value; "${parsed.stray}" is not one of /${parsed.leaf.path}'s options.`);
    return;
  }
  const given = parsed.bare ? { ...parsed.values, [parsed.bare.name]: parsed.bare.value } : parsed.values;
  const options = {};
  for (const option of parsed.leaf.options) {
    if (!(option.name in given)) {
      if (option.required) {
        showComposerError(`${option.name}: this field is required: type it after /${parsed.leaf.path}`);
        return;
      }
      continue;
    }
    const typed = typedValue(option, given[option.name]);
    if (typed.error) {
      showComposerError(typed.error);
      return;
    }
    options[option.canonical] = typed.value;
  }
  input.value = "";
  updateComposer();
  const answer = await post("/api/slash", { viewer: state.viewer, channel: state.channel,
    command: parsed.leaf.command, options });
  if (answer.error) showComposerError(`${answer.error}${answer.detail ? `: ${answer.detail}` : ""}`);
}

function onComposerKey(event) {
  const count = composer.suggestions.length;
  if ((event.key === "ArrowDown" || event.key === "ArrowUp") && count) {
    event.preventDefault();
    composer.highlighted = (composer.highlighted + (event.key === "ArrowDown" ? 1 : count - 1)) % count;
    composer.moved = true;
    updateComposer();
  } else if (event.key === "Tab" && count) {
    event.preventDefault();
    applySuggestion(composer.highlighted);
  } else if (event.key === "Escape") {
    composer.suggestions = [];
    $("#suggestions").hidden = true;
  } else if (event.key === "Enter") {
    event.preventDefault();
    const kind = count ? composer.suggestions[composer.highlighted].kind : null;
    const parsed = parseCommand(event.target.value);
    const halfTypedOption = kind === "option" && parsed && parsed.word;
    // Enter completes a command, an option or a value being typed; otherwise it sends.
    if (count && (composer.moved || kind === "command" || kind === "value" || halfTypedOption)) {
      applySuggestion(composer.highlighted);
    } else {
      send();
    }
  }
}

// ---- odds and ends ---------------------------------------------------------------------

// The bot writes emoji (🎲 ⏰ ✅ 👁); without a colour emoji font the browser draws each
// as an empty box. A colour font paints the die in colour; a missing glyph is drawn in
// the text colour alone.
function hasColourEmoji() {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 32;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.fillStyle = "#000";
  context.font = "24px sans-serif";
  context.textBaseline = "top";
  context.fillText("🎲", 2, 2);
  const pixels = context.getImageData(0, 0, 32, 32).data;
  for (let index = 0; index < pixels.length; index += 4) {
    const [red, green, blue] = [pixels[index], pixels[index + 1], pixels[index + 2]];
    if (Math.max(red, green, blue) - Math.min(red, green, blue) > 40) return true;
  }
  return false;
}

function openLightbox(url) {
  const box = $("#lightbox");
  box.querySelector("img").src = url;
  box.hidden = false;
}

// Links to Discord messages (the league's "board" links) jump to that message here.
function jumpTo(url) {
  const [, channelId, messageId] = /\/channels\/\d+\/(\d+)\/(\d+)/.exec(url) || [];
  if (!messageId) return;
  if (channelId !== state.channel && state.world.channels.some((c) => c.id === channelId)) {
    switchChannel(channelId);
  }
  const target = document.querySelector(`[data-id="${messageId}"]`);
  if (!target) return;
  target.scrollIntoView({ block: "center" });
  target.classList.add("flash");
  setTimeout(() => target.classList.remove("flash"), 1500);
}

function refreshTimestamps() {
  for (const time of document.querySelectorAll("time.ts[data-style='R']")) {
    time.textContent = DiscordMarkdown.relativeTime(new Date(Number(time.dataset.unix) * 1000));
  }
}

function start() {
  const input = $("#composer-input");
  input.addEventListener("input", () => {
    composer.highlighted = 0;
    composer.moved = false;
    updateComposer();
  });
  input.addEventListener("keydown", onComposerKey);
  $("#composer").addEventListener("submit", (event) => event.preventDefault());
  $("#lightbox").addEventListener("click", () => { $("#lightbox").hidden = true; });
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".select")) closeMenus();
    const jump = event.target.closest('a[href^="https://discord.com/channels/"]');
    if (jump) {
      event.preventDefault();
      jumpTo(jump.href);
    }
  });
  $("#me-locale").addEventListener("change", (event) => switchLocale(event.target.value));
  $("#emoji-note").hidden = hasColourEmoji();
  setInterval(refreshTimestamps, 30000);
  connect();
}

document.addEventListener("DOMContentLoaded", start);
