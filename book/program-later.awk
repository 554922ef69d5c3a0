# program-later.awk -- the live page (book/attention.html) parses Part II,
# the program, only when the reader opens it (the Makefile's section "the
# live book").  Part II and the indexes of chunks and identifiers after it,
# from the part that holds Part II's heading to the part that holds the
# colophon, go inside <noscript id="program-unread">.  With scripting on, a
# browser takes a noscript's content as text, unparsed, and book/page.html
# parses it when the reader opens Part II, follows a link into it, or
# reloads a page on which it was open; with scripting off, the page is the
# book as it is.  Before it stands Part II's title and a button, hidden
# until page.html shows them.  Half of the page's elements are in Part II.
#
#   awk -f book/program-later.awk STATIC.html > PAGE.html
{
    if (held != "") {
        if ($0 ~ /^<h1 class="book-part compact[^"]*" id="part-program"/) {
            print "<div class=\"program-later\" id=\"program-later\" hidden>"
            print "<h1 class=\"book-part\">Part II. The program</h1>"
            print "<p>Part II holds the program around the core: the command line, the"
            print "files, the experiments that compute every number Part I quotes, the"
            print "figures, the live page; and after it the indexes of chunks and of"
            print "identifiers. So that this page is ready sooner, it is read when you"
            print "open it, or follow a link into it.</p>"
            print "<p><button type=\"button\">Open Part II</button></p>"
            print "</div>"
            print "<noscript id=\"program-unread\">"
            inside = 1; opened++
        } else if (inside && $0 ~ /^<h1 [^>]*id="colophon"/) {
            print "</noscript>"
            inside = 0; closed++
        }
        print held
        held = ""
    }
    if (inside && index($0, "</noscript")) {
        print "program-later.awk: Part II holds </noscript> (line " NR ")" > "/dev/stderr"
        failed = 1; exit 1
    }
    if ($0 == "<div class=\"part\">") held = $0
    else print
}
END {
    if (failed) exit 1
    if (held != "") print held
    if (opened != 1 || closed != 1) {
        print "program-later.awk: did not find Part II's heading and the colophon after it" > "/dev/stderr"
        exit 1
    }
}
