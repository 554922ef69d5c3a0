# webfonts.py -- the page's two typefaces, embedded in it:
#   /usr/bin/python3 book/webfonts.py IN.html OUT.html
# The book face is TeX Gyre Pagella (Debian's fonts-texgyre), the face the
# PDF is set in; the code face is DejaVu Sans Mono (fonts-dejavu-core),
# upright, oblique (comments) and bold (keywords): pandoc's highlighting
# uses no bold oblique.
# Each face is cut down (python3-fonttools) to the characters the page
# holds, plus printable ASCII, Latin-1 and common punctuation, so that
# text a script writes into the live edition has its glyphs too; it is
# written as WOFF2 (python3-brotli) and put in the page's head as a
# base64 data URL, as book/katex.js does with KaTeX's fonts: the page stays
# one file that works from file://.  Each font keeps its own timestamp,
# so the same page gives the same bytes.
# Run with Debian's python3, which has those two packages.
import base64
import html
import io
import os
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

GYRE = '/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyrepagella-'
DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono'
# family, weight, style, file
FACES = [
    ('TeX Gyre Pagella', 400, 'normal', GYRE + 'regular.otf'),
    ('TeX Gyre Pagella', 400, 'italic', GYRE + 'italic.otf'),
    ('TeX Gyre Pagella', 700, 'normal', GYRE + 'bold.otf'),
    ('TeX Gyre Pagella', 700, 'italic', GYRE + 'bolditalic.otf'),
    ('DejaVu Sans Mono', 400, 'normal', DEJAVU + '.ttf'),
    ('DejaVu Sans Mono', 400, 'italic', DEJAVU + '-Oblique.ttf'),
    ('DejaVu Sans Mono', 700, 'normal', DEJAVU + '-Bold.ttf'),
]
# always kept: printable ASCII, Latin-1, general punctuation, arrows,
# the minus sign, angle brackets and the equivalence sign of chunk names
ALWAYS = set(range(0x20, 0x7f)) | set(range(0xa0, 0x100)) | set(range(0x2010, 0x2030)) \
    | set(range(0x2190, 0x2194)) | {0x2212, 0x2261, 0x27e8, 0x27e9, 0x2192, 0x2032}


def page_characters(page):
    """The characters of the page's text (not its markup, styles or scripts)."""
    text = re.sub(r'<(style|script)\b.*?</\1>', ' ', page, flags=re.S | re.I)
    text = re.sub(r'<[^>]*>', ' ', text)
    return {ord(c) for c in html.unescape(text)}


def woff2(path, wanted):
    font = TTFont(path, recalcTimestamp=False)   # the font's own date: same bytes
    cmap = font.getBestCmap()
    options = subset.Options()
    options.flavor = 'woff2'
    options.hinting = False          # screens of today need no TrueType hints
    options.desubroutinize = True    # smaller after compression
    options.name_IDs = [1, 2]        # family and style names
    options.drop_tables += ['FFTM']  # FontForge's timestamps
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(c for c in wanted if c in cmap))
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = 'woff2'
    font.save(out, reorderTables=False)
    return out.getvalue()


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: python3 book/webfonts.py IN.html OUT.html')
    source, target = sys.argv[1:]
    with open(source, encoding='utf-8') as f:
        page = f.read()
    if page.count('</head>') < 1:
        sys.exit(source + ': no </head>')
    wanted = page_characters(page) | ALWAYS
    rules, sizes = [], []
    for family, weight, style, path in FACES:
        data = woff2(path, wanted)
        sizes.append(len(data))
        rules.append('@font-face{font-family:"%s";font-weight:%d;font-style:%s;'
                     'font-display:swap;src:url(data:font/woff2;base64,%s) format("woff2")}'
                     % (family, weight, style, base64.b64encode(data).decode('ascii')))
    style = '<style>\n' + '\n'.join(rules) + '\n</style>\n</head>'
    page = page.replace('</head>', style, 1)
    with open(target + '.tmp', 'w', encoding='utf-8') as f:
        f.write(page)

    os.replace(target + '.tmp', target)
    print('%s: %d font faces embedded, %d characters, %d bytes of WOFF2'
          % (source, len(FACES), len(wanted), sum(sizes)))


main()
