# nwsplit.awk -- split the woven Markdown into parts, one per chapter, so
# that pandoc reruns only for the chapters an edit changed.
#
#   awk -v dir=DIR -f nwsplit.awk x.md
#
# Writes, in DIR/new/ (the Makefile moves each file into DIR with cpif, so
# an unchanged part keeps its time stamp):
#   pNN.md        part NN: a level-1 heading and everything up to the next
#   skeleton.md   the title block and every heading, each part announced by
#                 a paragraph "NWPART pNN" (sections.lua numbers the headings
#                 and gives them their ids as pandoc would in one document)
#   usemap.md     the chunk-use map (class nwusemap) for nwpost.awk
#   parts.list    the names of the parts, in order
# Headings inside fenced code are not headings.  POSIX awk only.

BEGIN { np = 0; out = ""; fence = ""; inmap = 0; head = 1; sk = dir "/new/skeleton.md" }

function fence_of(s) {           # the run of ` or ~ that opens a fence, or ""
    if (match(s, /^(````*|~~~~*)/)) return substr(s, 1, RLENGTH)
    return ""
}

{
    if (head) {                  # title block: up to the first heading
        if ($0 ~ /^# /) head = 0
        else { print > sk; next }
    }
    if (fence == "") {
        f = fence_of($0)
        if ($0 ~ /^~~~~~~~~ *\{\.nwusemap\}/) { inmap = 1; fence = f }
        else if (f != "") fence = f
        else if ($0 ~ /^# /) {
            if (out != "") close(out)
            name = sprintf("p%02d", np++); out = dir "/new/" name ".md"
            names[np] = name
            printf "\nNWPART %s\n\n", name > sk
        }
        if (fence == "" && $0 ~ /^#+ /) print $0 "\n" > sk
    } else if (index($0, fence) == 1 && $0 ~ /^(`+|~+) *$/ && length($0) >= length(fence)) {
        fence = ""
        if (inmap) { inmap = 0; print > (dir "/new/usemap.md"); next }
    }
    # exercises are numbered through the whole book, not per part
    if (fence == "" && sub(/^::: *\{\.exercise/, "::: {.exercise n=\"" (nex + 1) "\"")) nex++
    if (inmap) print > (dir "/new/usemap.md")
    else if (out != "") print > out
}

END {
    # one highlighted code block, so that pandoc writes the highlighting
    # styles into the page and the preamble made from the skeleton
    printf "\n```c\nint main(void);\n```\n" > sk
    for (i = 1; i <= np; i++) print names[i] > (dir "/new/parts.list")
}
