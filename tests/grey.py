"""grey.py: do the line charts survive printing in grey?

For each SVG figure given, the styles of its data lines (stroke colour,
dash pattern and width of every unfilled path, as svg.c draws a series) are compared pairwise: two styles with the same dash
pattern and width must differ in lightness by at least MIN_STEP (of 255),
or a reader of a page printed in grey cannot tell them apart.

A dash pattern alone tells groups of lines apart only while each group is
one line: where two patterns are each drawn in several lightnesses (a
model's seeds, say), the lines cross and overlap and the dashes are lost
in the tangle.  Then the groups must also differ in width.  Prints one
line per figure; exits 1 if any figure fails."""
import re
import sys

MIN_STEP = 40
TAG = re.compile(r'<path fill="none" stroke="(#[0-9A-Fa-f]{6})" stroke-width="([0-9.]+)"[^>]*>')
DASH = re.compile(r'stroke-dasharray="([^"]*)"')


def lightness(colour):
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def check(path):
    styles = set()
    for m in TAG.finditer(open(path, encoding="utf-8").read()):
        dash = DASH.search(m.group(0))
        pattern = (dash.group(1) if dash else "solid") + " " + m.group(2) + " px"
        styles.add((pattern, m.group(1).upper()))
    styles = sorted(styles)
    clashes = [(a, b) for i, a in enumerate(styles) for b in styles[i + 1:]
               if a[0] == b[0] and abs(lightness(a[1]) - lightness(b[1])) < MIN_STEP]
    return styles, clashes


def tangles(styles):
    """Pairs of patterns of one width, each in several lightnesses."""
    shades = {}
    for pattern, colour in styles:
        shades.setdefault(pattern, set()).add(colour)
    several = sorted(p for p, c in shades.items() if len(c) > 1)
    width = lambda p: p.rsplit(" ", 2)[1]
    return [(a, b) for i, a in enumerate(several) for b in several[i + 1:]
            if width(a) == width(b)]


status = 0
for path in sys.argv[1:]:
    styles, clashes = check(path)
    tangled = tangles(styles)
    if clashes or tangled:
        status = 1
        for a, b in clashes:
            print(f"{path}: {a[1]} and {b[1]}, both {a[0]}, differ by "
                  f"{abs(lightness(a[1]) - lightness(b[1])):.0f} of 255 in grey")
        for a, b in tangled:
            print(f"{path}: lines {a} and lines {b}, several shades each, "
                  "are told apart by their dashes alone")
    elif len(styles) > 1:
        print(f"{path}: {len(styles)} line styles, each told apart in grey")
sys.exit(status)
