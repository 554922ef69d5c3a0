# chapters.awk -- the chapters of attention.nw and their topics: the one
# place that says what a chapter is.
#
#   awk -f tests/chapters.awk attention.nw            number TAB topic TAB title
#   awk -v lines=1 -f tests/chapters.awk attention.nw  ... TAB line of the heading
#
#   5	forward-pass	The forward pass
#
# A chapter is a level-1 heading of the prose, "# Title", that pandoc
# numbers: one whose attributes have neither "-" nor ".unnumbered" (the
# preface and the appendices are "# Title {-}").  Its topic is the
# identifier the heading gives itself, "# The forward pass {#forward-pass}":
# tests are tagged with it (tests/chapters.h), and make check CHAPTER= takes
# the topic or the chapter's number (tests/check.sh); the number is only
# where the chapter sits today.  Lines inside code chunks are not headings.
# A chapter without a topic, a topic that starts with no letter (it could
# be taken for a number) and a topic given twice are errors: exit 1.
# Users: tests/check.sh, tests/build_tests.sh, course/student.awk.
# POSIX awk (mawk and gawk).

BEGIN { chapters = 0; in_code = 0; failed = 0 }

/^<<.*>>=[ \t]*$/ { in_code = 1; next }
/^@( |$)/         { in_code = 0; next }

!in_code && /^# / {
    title = substr($0, 3); topic = ""; numbered = 1
    if (match(title, /[ \t]*\{[^{}]*\}[ \t]*$/)) {
        attributes = substr(title, RSTART, RLENGTH)
        title = substr(title, 1, RSTART - 1)
        gsub(/[{}]/, " ", attributes)
        n = split(attributes, attribute, " ")
        for (i = 1; i <= n; i++) {
            if (attribute[i] == "-" || attribute[i] == ".unnumbered") numbered = 0
            if (attribute[i] ~ /^#/) topic = substr(attribute[i], 2)
        }
    }
    if (!numbered) next
    sub(/[ \t]+$/, "", title)
    chapters++
    where = FILENAME ":" FNR ": chapter " chapters " (" title ")"
    if (topic == "")
        fail(where " has no topic: give its heading one, # " title " {#topic}")
    else if (topic !~ /^[A-Za-z]/)
        fail(where ": its topic '" topic "' must start with a letter")
    else if (topic in seen)
        fail(where ": its topic '" topic "' is also chapter " seen[topic] "'s")
    seen[topic] = chapters
    print chapters "\t" topic "\t" title (lines ? "\t" FNR : "")
}

function fail(message) {
    print "chapters.awk: " message > "/dev/stderr"
    failed = 1
}

END { exit failed }
