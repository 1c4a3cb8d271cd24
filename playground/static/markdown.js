"use strict";
// Discord's message markdown, as far as the bot uses it: bold, italics, underline,
// strike-through, inline and block code, quotes, headings, lists, masked links,
// user and channel mentions and <t:unix:style> timestamps.

const DiscordMarkdown = (() => {
  const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
  }

  function timestamp(unix, style, written) {
    const when = new Date(Number(unix) * 1000);
    // Past the dates a browser can show, the tag stays text instead of breaking the page.
    if (!Number.isFinite(when.getTime())) return written;
    const exact = when.toLocaleString();
    let shown;
    switch (style) {
      case "R": shown = relativeTime(when); break;
      case "t": shown = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); break;
      case "T": shown = when.toLocaleTimeString(); break;
      case "d": shown = when.toLocaleDateString(); break;
      case "D": shown = when.toLocaleDateString([], { dateStyle: "long" }); break;
      case "F": shown = when.toLocaleString([], { dateStyle: "full", timeStyle: "short" }); break;
      default: shown = when.toLocaleString([], { dateStyle: "long", timeStyle: "short" });
    }
    return `<time class="ts" data-unix="${unix}" data-style="${style || "f"}" title="${exact}">${shown}</time>`;
  }

  function relativeTime(when) {
    const seconds = Math.round((when.getTime() - Date.now()) / 1000);
    if (!Number.isFinite(seconds)) return "";
    const units = [["year", 31536000], ["month", 2592000], ["day", 86400],
      ["hour", 3600], ["minute", 60], ["second", 1]];
    const format = new Intl.RelativeTimeFormat([], { numeric: "auto" });
    for (const [unit, size] of units) {
      if (Math.abs(seconds) >= size || unit === "second") {
        return format.format(Math.round(seconds / size), unit);
      }
    }
    return "";
  }

  // Inline markup on text that is already HTML-escaped. Code and the tags of links are
  // set aside first, so later rules never write markup inside them (or an attribute).
  function inline(escaped, context) {
    const kept = [];
    const keep = (html) => {
      kept.push(html);
      return `\u0000${kept.length - 1}\u0000`;
    };
    let text = escaped.replace(/`([^`]+)`/g, (_, code) => keep(`<code>${code}</code>`));
    text = text
      .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, (_, label, url) =>
        keep(`<a href="${url}" target="_blank" rel="noreferrer">`) + label + keep("</a>"))
      .replace(/\*\*([\s\S]+?)\*\*/g, "<strong>$1</strong>")
      .replace(/__([\s\S]+?)__/g, "<u>$1</u>")
      .replace(/(^|[^\w*])\*(?!\s)([^*]+?)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|\W)_(?!\s)([^_]+?)_(?!\w)/g, "$1<em>$2</em>")
      .replace(/~~([\s\S]+?)~~/g, "<s>$1</s>")
      .replace(/\|\|([\s\S]+?)\|\|/g, '<span class="spoiler" tabindex="0">$1</span>')
      .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => {
        const name = context.userName(id);
        const self = id === context.viewer ? " mention-self" : "";
        return `<span class="mention${self}">@${escapeHtml(name)}</span>`;
      })
      .replace(/&lt;#(\d+)&gt;/g, (_, id) =>
        `<span class="mention">#${escapeHtml(context.channelName(id))}</span>`)
      .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (written, unix, style) => timestamp(unix, style, written))
      .replace(/&lt;a?:(\w+):\d+&gt;/g, ":$1:");
    return text.replace(/\u0000(\d+)\u0000/g, (_, index) => kept[Number(index)]);
  }

  function blocks(text, context) {
    const html = [];
    let list = null;
    const closeList = () => {
      if (list) html.push(`<ul>${list.join("")}</ul>`);
      list = null;
    };
    for (const line of text.split("\n")) {
      const escaped = escapeHtml(line);
      let match;
      if ((match = /^\s*[-*] (.*)$/.exec(escaped)) && !/^-# /.test(line)) {
        (list = list || []).push(`<li>${inline(match[1], context)}</li>`);
        continue;
      }
      closeList();
      if ((match = /^(#{1,3}) (.*)$/.exec(escaped))) {
        html.push(`<h${match[1].length + 2}>${inline(match[2], context)}</h${match[1].length + 2}>`);
      } else if ((match = /^-# (.*)$/.exec(escaped))) {
        html.push(`<div class="subtext">${inline(match[1], context)}</div>`);
      } else if ((match = /^&gt; ?(.*)$/.exec(escaped))) {
        html.push(`<blockquote>${inline(match[1], context)}</blockquote>`);
      } else {
        html.push(`<div class="line">${inline(escaped, context) || "&nbsp;"}</div>`);
      }
    }
    closeList();
    return html.join("");
  }

  function render(text, context) {
    if (!text) return "";
    // NUL marks the parts inline() sets aside; a message cannot bring its own.
    return String(text).replace(/\u0000/g, "")
      .split(/```(?:[a-z]*\n)?([\s\S]*?)```/)
      .map((part, index) => {
        if (index % 2 === 1) return `<pre><code>${escapeHtml(part)}</code></pre>`;
        const prose = part.replace(/^\n+|\n+$/g, "");
        return prose ? blocks(prose, context) : "";
      })
      .join("");
  }

  return { render, escapeHtml, relativeTime };
})();
