"""The drawing toolkit every board is drawn with, one module per job.

- ``geometry``: the box and point types;
- ``masks``: the supersampled anti-aliasing that every shape and glyph goes through;
- ``text``: fonts, fitting names and lines, drawing text;
- ``shapes``: rounded panels, discs, rings, lines, arrows, crosses, polygons, shadows;
- ``dice``: die faces;
- ``cards``: suit pips, card faces and backs;
- ``player_strip``: the panel naming one player;
- ``png``: a canvas to draw on and the PNG encoder.

The colours come from ``render.theme``. How a renderer uses the toolkit::

    image, draw = new_canvas(720, 860)
    draw_panel(draw, (16, 16, 704, 100))
    draw_text(draw, (40, 40), fit_text(clean_name(name), font(24, "Bold"), 300),
              font(24, "Bold"), TEXT)
    draw_disc(draw, (100, 200), 30, SEAT_COLOURS[0].fill, label="3",
              label_colour=SEAT_COLOURS[0].text, edge=SEAT_COLOURS[0].edge)
    return encode_png(image)

Conventions:

- Boxes are ``(left, top, right, bottom)`` in pixels, right/bottom exclusive-ish like
  Pillow's own; centres are ``(x, y)``.
- Every drawing helper takes an ``ImageDraw.ImageDraw`` on an RGB image. Pillow's own
  shapes are not anti-aliased, so the helpers here paint cached, supersampled greyscale
  masks with ``draw.bitmap`` (one flat colour per mask, blended at the edges). Masks are
  cached by geometry only, so repeated renders cost a few blits.
- Player names come from Discord and may hold emoji or be very long: pass them through
  ``clean_name`` (drops characters Noto Sans cannot draw) and ``fit_text`` (ellipsis).
"""
