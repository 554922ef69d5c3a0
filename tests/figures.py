"""figures.py: do the book's figures keep the one standard?

    python3 tests/figures.py BOOK.nw FIGURE.svg...

The figures appendix of attention.nw sets the standard; this checks what
the build drew against it, figure by figure:

  size     every <text> has one font size, the same in every figure, and
           it prints at 7 points or more when the widest figure, 760
           pixels, prints 115 mm wide (the text's width); no figure is
           wider than 760 pixels, or it would print at a smaller scale;
  minus    no <text> has an ASCII hyphen-minus before a digit or a
           decimal point: a number's sign is the minus sign, U+2212;
  grey     a figure with a diverging colour bar (a gradient from a dark
           blue to a dark red) marks the negative side: the bar carries
           minus marks (short horizontal lines) on it, and every bluish
           cell that is not near white in grey has a mark or a number
           with a minus sign on it;
  face     every figure asks for TeX Gyre Pagella, the text's face, and
           the table of its widths in BOOK.nw (pagella_width, by which
           the program lays labels out) holds, for each printable ASCII
           character, the widest advance of the font's four styles;
  cited    every figure of BOOK.nw ({#fig:NAME}) is cited as @fig:NAME in
           the prose of its own chapter (not in a caption, not in code).

Prints one line per failure and a summary; exits 1 if anything fails."""
import re
import sys

FIGURE_WIDTH = 760          # pixels that print as wide as the text
TEXT_WIDTH_MM = 115
MIN_POINTS = 7
POINT_MM = 25.4 / 72
NEAR_WHITE = 232            # grey lightness (of 255) above which no mark is needed

TEXT = re.compile(r'<text\b([^>]*)>(.*?)</text>', re.S)
SIZE = re.compile(r'font-size="([0-9.]+)"')
SVG_WIDTH = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"')
GRADIENT = re.compile(r'<linearGradient id="([^"]+)"[^>]*>(.*?)</linearGradient>', re.S)
STOP = re.compile(r'stop-color="(#[0-9A-Fa-f]{6})"')
RECT = re.compile(r'<rect x="([-0-9.]+)" y="([-0-9.]+)" width="([0-9.]+)" '
                  r'height="([0-9.]+)" fill="([^"]+)"')
LINE = re.compile(r'<line x1="([-0-9.]+)" y1="([-0-9.]+)" x2="([-0-9.]+)" '
                  r'y2="([-0-9.]+)"')
TEXT_AT = re.compile(r'<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*>(.*?)</text>', re.S)


def rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def grey(colour):
    r, g, b = rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def bluish(colour):
    r, _, b = rgb(colour)
    return b > r + 10


def reddish(colour):
    r, _, b = rgb(colour)
    return r > b + 10


def inside(x, y, box, slack=0.5):
    bx, by, bw, bh = box
    return bx - slack <= x <= bx + bw + slack and by - slack <= y <= by + bh + slack


def marks_in(svg):
    """Short horizontal lines: the minus marks, by their midpoints."""
    out = []
    for m in LINE.finditer(svg):
        x1, y1, x2, y2 = map(float, m.groups())
        if y1 == y2 and 0 < abs(x2 - x1) <= 16:
            out.append(((x1 + x2) / 2, y1))
    return out


def check_sizes(name, svg, sizes, failures):
    width = SVG_WIDTH.search(svg)
    if width and float(width.group(1)) > FIGURE_WIDTH:
        failures.append(f"{name}: {width.group(1)} pixels wide, more than {FIGURE_WIDTH}")
    for attrs, _ in TEXT.findall(svg):
        m = SIZE.search(attrs)
        if m:
            sizes.setdefault(float(m.group(1)), set()).add(name)


def check_minus(name, svg, failures):
    for _, content in TEXT.findall(svg):
        if re.search(r'-(?=[0-9.])', content):
            failures.append(f"{name}: a hyphen as a minus sign in <text>{content}</text>")


def check_grey(name, svg, failures):
    bars = {}
    for gid, body in GRADIENT.findall(svg):
        stops = STOP.findall(body)
        dark_blue = any(bluish(c) and grey(c) < 150 for c in stops)
        dark_red = any(reddish(c) and grey(c) < 150 for c in stops)
        if dark_blue and dark_red:
            bars[gid] = stops
    if not bars:
        return 0
    marks = marks_in(svg)
    rects = [(tuple(map(float, m.groups()[:4])), m.group(5)) for m in RECT.finditer(svg)]
    for gid in bars:
        boxes = [box for box, fill in rects if fill == f"url(#{gid})"]
        for box in boxes:
            if not any(inside(x, y, box) for x, y in marks):
                failures.append(f"{name}: the diverging colour bar {gid} has no minus marks "
                                "on its negative side: in grey -2 and +2 look alike")
    numbers = [(float(x), float(y), s) for x, y, s in TEXT_AT.findall(svg)]
    unmarked = 0
    for box, fill in rects:
        if not fill.startswith("#") or not bluish(fill) or grey(fill) >= NEAR_WHITE:
            continue
        if box[2] != box[3]:        # cells are square; legend swatches and bars are not checked here
            continue
        marked = any(inside(x, y, box) for x, y in marks) or \
            any(inside(x, y - 5, box) and s.startswith("\u2212") for x, y, s in numbers)
        unmarked += not marked
    if unmarked:
        failures.append(f"{name}: {unmarked} negative cells, darker than white in grey, "
                        "without a minus mark")
    return 1


FACE = "TeX Gyre Pagella"
FONT_FILE = "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyrepagella-%s.otf"
FAMILY = re.compile(r'<svg\b[^>]*?\sfont-family="([^"]*)"')
WIDTHS = re.compile(r'pagella_width\[95\] = \{([^}]*)\}')


def check_face(name, svg, failures):
    family = FAMILY.search(svg)
    if not family or not family.group(1).startswith(FACE):
        failures.append(f"{name}: its text asks for "
                        f"{family.group(1) if family else 'no face'}, not {FACE}")


def check_widths(nw_path, failures):
    """The book's table of Pagella's widths against the font's own."""
    table = WIDTHS.search(open(nw_path, encoding="utf-8").read())
    if not table:
        failures.append(f"{nw_path}: no table pagella_width[95]")
        return
    book = [int(n) for n in re.findall(r'[0-9]+', table.group(1))]
    from fontTools.ttLib import TTFont
    styles = []
    for style in ("regular", "italic", "bold", "bolditalic"):
        font = TTFont(FONT_FILE % style)
        cmap, advance = font.getBestCmap(), font["hmtx"]
        styles.append([advance[cmap[c]][0] for c in range(32, 127)])
    widest = [max(w) for w in zip(*styles)]
    wrong = [f"{chr(32 + i)!r} {b} (the font: {w})"
             for i, (b, w) in enumerate(zip(book, widest)) if b != w]
    if len(book) != 95 or wrong:
        failures.append(f"{nw_path}: pagella_width has {len(book)} entries; "
                        f"wrong: {'; '.join(wrong[:5]) or 'none'}")


def check_citations(nw_path, failures):
    """Each {#fig:NAME} cited as @fig:NAME in its chapter's prose."""
    chapter, in_code = 0, False
    figures, citations = {}, {}
    for line in open(nw_path, encoding="utf-8"):
        if re.match(r'<<.*>>=\s*$', line):
            in_code = True
            continue
        if line.startswith("@") and (line.strip() == "@" or line.startswith("@ ")):
            in_code = False
            continue
        if in_code:
            continue
        if line.startswith("# "):
            chapter += 1
        if line.startswith("!["):
            for name in re.findall(r'\{#(fig:[\w-]+)', line):
                figures[name] = chapter
            continue
        for name in re.findall(r'@(fig:[\w-]+)', line):
            citations.setdefault(name, set()).add(chapter)
    cited = 0
    for name, ch in sorted(figures.items()):
        if ch in citations.get(name, set()):
            cited += 1
        else:
            failures.append(f"{nw_path}: {name} is not cited as @{name} in its chapter's prose")
    return cited, len(figures)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    nw, paths = argv[1], argv[2:]
    failures, sizes, diverging = [], {}, 0
    for path in paths:
        svg = open(path, encoding="utf-8").read()
        name = path.rsplit("/", 1)[-1]
        check_sizes(name, svg, sizes, failures)
        check_minus(name, svg, failures)
        check_face(name, svg, failures)
        diverging += check_grey(name, svg, failures)
    if len(sizes) > 1:
        failures.append("text in {} sizes: {}".format(len(sizes), "; ".join(
            f"{s:g} px in {len(names)} figures" for s, names in sorted(sizes.items()))))
    for size in sizes:
        points = size * TEXT_WIDTH_MM / FIGURE_WIDTH / POINT_MM
        if points < MIN_POINTS - 1e-9:
            failures.append(f"text of {size:g} px prints at {points:.2f} pt "
                            f"(760 px = {TEXT_WIDTH_MM} mm), below {MIN_POINTS} pt")
    check_widths(nw, failures)
    cited, total = check_citations(nw, failures)
    for f in failures:
        print(f)
    size_note = ", ".join(f"{s:g} px = {s * TEXT_WIDTH_MM / FIGURE_WIDTH / POINT_MM:.2f} pt"
                          for s in sorted(sizes))
    print(f"{len(paths)} figures: text at {size_note}; {diverging} with a diverging map; "
          f"{cited} of {total} figures cited by number in their chapters; "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
