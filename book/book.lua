-- book.lua -- pandoc (2.17) Lua filter for the woven book.
--
--  * {{name}} in prose text, inline code and math is replaced by the value
--    of `name` in the numbers file given as metadata:  -M numbers=FILE
--    (one "name value" per line; value = rest of line; # starts a comment).
--    Placeholders without a value are collected and reported together;
--    pandoc then fails (exit 83) naming them.
--  * A paragraph that is only {{table:NAME}} is replaced by the Markdown
--    table in NAME.md, read from the directory of the numbers file.
--  * LaTeX: images *.svg -> *.pdf, each as wide as the text times its
--    SVG width / 760 (one scale for all figures); chunk headers and use lines get macros
--    (\nwchunkhead, \nwchunkuses, defined in weave-preamble.tex); an
--    unnumbered chapter (the preface, the appendices) sets the running head,
--    as a numbered one does.
--    Chunk names are protected: nwpandoc.awk breaks "{{" with an empty
--    span and marks their inline code with class nwname.
--  * The chunk-use map written by nwpandoc.awk (class nwusemap) is dropped.
--  * Appendices are lettered, figures and tables numbered by chapter
--    ("Figure 4.2", "Table A.1"), and a reference @fig:NAME, @tbl:NAME or
--    @sec:ID in the text (pandoc reads it as a citation) becomes the
--    number, in the PDF with a page for a section (see number_book); a
--    reference to nothing fails the build.  Terms marked [..]{.idx} make
--    the subject index, which follows the references; the chapter
--    {#colophon} goes last.  A heading of class "book-part" begins a part
--    of the book (Part I, Part II).
--  * An exercise (a div of class "exercise", see course/student.awk) is
--    numbered in order through the book, "Exercise N." put before its statement; in LaTeX
--    it becomes the environment nwexercise (weave-preamble.tex).
--  * HTML: each figure's image gets a width and a least width from its
--    SVG (html_figure_width), so that its labels are never shown smaller
--    than the page's small print; where the program drew the figure for a
--    phone too (fig/narrow/NAME.svg), a narrow window shows that drawing
--    instead (html_picture); the page ends with a link back to the contents (weave.css
--    keeps it along the foot of the window); each chapter and section is
--    a <div class="part">, which the browser may leave undrawn while it is
--    far from the window.
--  * A table's columns of numbers are set flush right (both formats).
--  * LaTeX: a formula in bold text is set in bold (\boldmath).
--  * HTML: a formula is left as its TeX in <span class="math inline"> or
--    <span class="math display">, which book/katex.js typesets when the
--    book is built.

local numbers = nil       -- name -> value
local numbers_path = nil
local numbers_dir = "."

local missing = pandoc.List()   -- placeholders without a value, in order
local seen_missing = {}

local function fail(msg)
  error("book.lua: " .. msg, 0)
end

local function note_missing(what)
  if not seen_missing[what] then
    seen_missing[what] = true
    missing:insert(what)
  end
end

local function has_class(el, c)
  for _, x in ipairs(el.classes) do if x == c then return true end end
  return false
end

local function read_file(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local build = {commit = "", changed = false}   -- the commit the book is built from

local function load_numbers(meta)
  if meta.commit then build.commit = pandoc.utils.stringify(meta.commit) end
  build.changed = meta.changed ~= nil
  if meta.numbers == nil then return end
  numbers_path = pandoc.utils.stringify(meta.numbers)
  numbers_dir = numbers_path:match("^(.*)/[^/]*$") or "."
  local text = read_file(numbers_path)
  if not text then fail("cannot read numbers file " .. numbers_path) end
  numbers = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    line = line:gsub("\r$", "")
    local name, value = line:match("^%s*([^%s#][^%s]*)%s+(.-)%s*$")
    if name then
      numbers[name] = value
    elseif line:match("^%s*([^%s#][^%s]*)%s*$") then
      numbers[line:match("^%s*(%S+)")] = ""      -- name with empty value
    end
  end
  numbers.book_commit = build.commit
end

-- a placeholder name: starts with a letter or _, then letters, digits, _ . - :
local PH = "{{([%a_][%w_%.%-:|]*)}}"

local function value_of(name)
  if name:match("^table:") then
    note_missing("{{" .. name .. "}} (not a paragraph of its own)")
    return nil
  end
  local v = numbers and numbers[name]
  if v == nil then note_missing("{{" .. name .. "}}") end
  return v          -- nil: leave the text; the build fails at the end
end

-- Numbers read as prose.  In a sentence, a placeholder may ask for a form:
--   {{NAME|word}}         a count as a word below ten: "three"
--   {{NAME|NOUN}}         a count with its noun: "no pairs", "one pair",
--                         "three pairs", "45 pairs"; "no pair" for zero
--                         ({{NAME|NOUN|PLURAL}}
--                         when the plural is not NOUN + "s")
--   {{NAME|of-hundred}}   "all hundred" or "91 of the hundred"
--   {{LO|to|HI}}          "100" when the two are equal, else "91 to 100"
--   {{PART|of|WHOLE}}     "all 60" when the two are equal, else "59 of the 60"
--
-- Numbers read as numbers.  Every value placed outside code, bare or in a
-- form, in a sentence or in mathematics, is printed by one rule
-- (number_form):
--   * an integer part of five digits or more is grouped in threes by
--     commas, 17600 as 17,600 (17{,}600 in mathematics); one of four
--     digits stays whole, 9440, as the program's tables print it;
--   * a decimal below 0.001, its first significant digit in the fourth
--     place or later, is a power of ten with the digits it had:
--     0.0000002 as 2 x 10^-7, 0.000120 as 1.20 x 10^-4;
--   * a value written with an exponent, 3.8e-06, likewise: 3.8 x 10^-6;
--   * a negative value's sign is the minus sign, U+2212, not the hyphen
--     the numbers file has (mathematics makes its own minus of it);
-- a power of ten is set in mathematics.  A seed (a name ending in _seed)
-- names a run, as a year names a date, and is printed as written.  Code
-- gets the bare value.
local WORDS = {[0] = "no", "one", "two", "three", "four", "five", "six",
               "seven", "eight", "nine"}

local function count_of(name, text)
  local n = tonumber(text)
  if n == nil or n < 0 or n ~= math.floor(n) then
    fail("{{" .. name .. "}} asks for a count, but its value is '" .. text .. "'")
  end
  return n
end

local function plural(noun)
  if noun:match("[sxz]$") or noun:match("[cs]h$") then return noun .. "es" end
  return noun .. "s"
end

-- "3.8e-06" as mantissa and power of ten, or nil
local function exponent_form(text)
  local m, e = text:match("^(%-?%d+%.?%d*)[eE]([-+]%d+)$")
  if not m then return nil end
  e = tonumber(e)
  if e == 0 then return m end
  return m .. "\\times 10^{" .. e .. "}"
end

-- a run of digits grouped in threes by sep, from five digits up
local function grouped(digits, sep)
  if #digits < 5 then return digits end
  local head = (#digits - 1) % 3 + 1
  local out = digits:sub(1, head)
  for k = head + 1, #digits, 3 do out = out .. sep .. digits:sub(k, k + 2) end
  return out
end

-- a value as it is read (the rule above): its text, and whether that text
-- is mathematics; in_math: for a formula, where a comma needs braces
local function number_form(text, in_math)
  local power = exponent_form(text)
  if power then return power, power:find("\\times") ~= nil end
  local sign, int, frac = text:match("^(%-?)(%d+)(%.?%d*)$")
  if not sign then return text, false end
  local zeros, digits = frac:match("^%.(000+)([1-9]%d*)$")
  if zeros and not int:find("[1-9]") then
    local m = #digits > 1 and digits:sub(1, 1) .. "." .. digits:sub(2) or digits
    return sign .. m .. "\\times 10^{" .. -(#zeros + 1) .. "}", true
  end
  if sign == "-" and not in_math then sign = "\u{2212}" end   -- the minus sign
  return sign .. grouped(int, in_math and "{,}" or ",") .. frac, false
end

-- a form's result is a list of pieces {text, is_math}
local function piece(text) return {text, false} end

local function number_piece(name, text)
  if name:match("_seed$") then return piece(text) end
  local s, is_math = number_form(text, false)
  return {s, is_math}
end

local function form_of(name, parts)
  local text = value_of(parts[1])
  if text == nil then return nil end
  local form = parts[2]
  if (form == "to" or form == "of") and #parts == 3 then
    local other = value_of(parts[3])
    if other == nil then return nil end
    local a, b = number_piece(parts[1], text), number_piece(parts[3], other)
    if form == "to" then
      return text == other and {a} or {a, piece(" to "), b}
    end
    return text == other and {piece("all "), b} or {a, piece(" of the "), b}
  end
  local n = count_of(name, text)
  local number = number_piece(parts[1], text)
  if form == "word" and #parts == 2 then
    return {n == 0 and piece("none") or (WORDS[n] and piece(WORDS[n]) or number)}
  elseif form == "of-hundred" and #parts == 2 then
    return n == 100 and {piece("all hundred")} or {number, piece(" of the hundred")}
  elseif #parts <= 3 and form:match("^%a+$") then
    local noun = n <= 1 and form or (parts[3] or plural(form))
    return {WORDS[n] and piece(WORDS[n]) or number, piece(" " .. noun)}
  end
  fail("{{" .. name .. "}}: no such form of a number")
end

local function prose_value(name)
  local parts = {}
  for part in name:gmatch("[^|]+") do parts[#parts + 1] = part end
  if #parts > 1 then return form_of(name, parts) end
  local v = value_of(name)
  return v and {number_piece(name, v)}
end

local function subst(s)
  if not s:find("{{", 1, true) then return s end
  return (s:gsub(PH, function(name)
    if name:find("|", 1, true) then fail("{{" .. name .. "}}: a form in code") end
    return value_of(name)
  end))
end

-- in mathematics: the rule above, the power of ten and the grouping in TeX
local function subst_math(s)
  if not s:find("{{", 1, true) then return s end
  return (s:gsub(PH, function(name)
    local v = value_of(name)
    if v == nil or name:match("_seed$") then return v end
    return (number_form(v, true))
  end))
end

-- in a sentence: forms, the rule above, and a power of ten set as mathematics
local function subst_prose(s)
  local out = pandoc.List()
  local text = ""                               -- prose not yet put out
  local at = 1
  while true do
    local i, j, name = s:find(PH, at)
    if not i then break end
    text = text .. s:sub(at, i - 1)
    local pieces = prose_value(name) or {piece(s:sub(i, j))}   -- missing: reported at the end
    for _, p in ipairs(pieces) do
      if p[2] then
        if text ~= "" then out:insert(pandoc.Str(text)) end
        out:insert(pandoc.Math("InlineMath", p[1]))
        text = ""
      else
        text = text .. p[1]
      end
    end
    at = j + 1
  end
  text = text .. s:sub(at)
  if text ~= "" then out:insert(pandoc.Str(text)) end
  return out
end

-- merge runs of Str (the reader may split "{{a}}" or glue punctuation to it),
-- then substitute
local function inlines(els)
  local out = pandoc.List()
  local buf = nil
  local function flush()
    if buf then out:extend(subst_prose(buf)); buf = nil end
  end
  for _, el in ipairs(els) do
    if el.t == "Str" then
      buf = (buf or "") .. el.text
    else
      flush()
      out:insert(el)
    end
  end
  flush()
  return out
end

-- a table put in by {{table:NAME}} is named tbl:NAME
local function name_table(blocks, name)
  for _, b in ipairs(blocks) do
    if b.t == "Table" and b.identifier == "" then b.identifier = "tbl:" .. name end
  end
  return blocks
end

local function table_para(el)
  local s = pandoc.utils.stringify(el):gsub("^%s+", ""):gsub("%s+$", "")
  local name = s:match("^{{table:([^{}]+)}}$")
  if not name then return nil end
  local path = numbers_dir .. "/" .. name .. ".md"
  local text = numbers and read_file(path)
  if not text then
    note_missing("{{table:" .. name .. "}} (no file " .. path .. ")")
    return {}       -- dropped; the build fails at the end
  end
  return name_table(pandoc.read(text, "markdown").blocks, name)
end

local is_latex = FORMAT:match("latex") ~= nil
local exercises = 0       -- exercises numbered so far


local function latex_wrap(el, macro)
  local content = pandoc.List({pandoc.RawInline("latex", "\\" .. macro .. "{")})
  content:extend(el.content)
  content:insert(pandoc.RawInline("latex", "}"))
  el.content = content
  return el
end

-- Chapters, appendices, figures and tables, numbered in one walk of the
-- book (the pass "number_book" below, run before the others see a
-- heading or a table).
--
-- A level-1 heading of class "appendix" begins an appendix.  The
-- appendices are lettered A, B, ... here, in the order they come, and
-- their sections numbered A.1, A.1.1 as a chapter's are, so that moving
-- an appendix moves its letter: in HTML the heading gets its number
-- (pandoc keeps a "number" it finds), in LaTeX \appendix comes before
-- the first one and LaTeX letters the chapters after it.  An appendix's
-- heading is written unnumbered in the source ({-}), so that the tools
-- that count chapters (tests/chapters.awk) pass it by; the class
-- "unnumbered" is taken off here.  A level-3 heading directly under an
-- appendix, with no section above it, stays unnumbered.
--
-- Figures and tables are numbered by chapter, "Figure C.N", "Table C.N"
-- (C a chapter's number or an appendix's letter), as LaTeX numbers its
-- captions; in HTML the caption starts with its number.  An implicit
-- figure is a paragraph of one image whose title starts with "fig:"
-- (pandoc 2.17).  A table's caption is the paragraph "Table: ..." after
-- it (pandoc's own syntax for a table written in the text; book.lua
-- attaches it to a table put in by {{table:NAME}} as well); it may end
-- with the table's identifier, {#tbl:NAME}, which for {{table:NAME}} is
-- tbl:NAME unless the caption says otherwise.  A table without a
-- caption fails the build.
--
-- A reference in the text, written as a citation, becomes the number of
-- what it names (a link in HTML, \ref in LaTeX), so that the text and the
-- caption or heading agree; one to nothing fails the build:
--   @fig:NAME   "Figure C.N"
--   @tbl:NAME   "Table C.N"
--   @sec:ID     "Chapter 4", "Appendix C" or "Section C.2" (the heading
--               with identifier ID), in the PDF with its page:
--               "Appendix C (p. 212)"; in brackets, [@sec:ID],
--               "(Appendix C, p. 212)"
local figure_number = {}  -- identifier -> "C.N"
local table_number = {}   -- identifier -> "C.N"
local heading_ref = {}    -- identifier -> {kind, number}
local LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

local function caption_id(inlines)     -- a trailing {#tbl:NAME}, taken off
  local last = inlines[#inlines]
  if last and last.t == "Str" then
    local id = last.text:match("^{#([%w_:%-%.]+)}$")
    if id then
      inlines:remove(#inlines)
      while #inlines > 0 and (inlines[#inlines].t == "Space"
                              or inlines[#inlines].t == "SoftBreak") do
        inlines:remove(#inlines)
      end
      return id
    end
  end
  return nil
end

local function caption_inlines(el)
  local out = pandoc.List()
  for _, b in ipairs(el.caption.long or {}) do
    if b.content then out:extend(b.content) end
  end
  return out
end

-- The subject index.  A term is marked in the text as a span,
-- [text]{.idx key="term"} (key: the entry, if not the text).  In LaTeX
-- the text is followed by \index{term}, and imakeidx (weave-preamble.tex)
-- prints the index, with pages, where book.lua puts \printindex: before
-- the index of chunks.  In HTML the span gets an anchor, idx-N, and the
-- chapter "Index", in the same place, lists each term with a link to
-- each place it is marked, named by the number of its section (or, in
-- an unnumbered chapter, the chapter's title).
local index_entries = {}   -- term -> list of {anchor, where}
local index_marks = 0

local function makeindex_key(key)   -- makeindex's special characters quoted
  return (key:gsub('[!@|"]', '"%0'))
end

-- Spans for one book or one kind of build: [..]{.only-latex},
-- [..]{.only-html}; [..]{.if-commit} when the book is built from a git
-- commit, [..]{.if-no-commit} when not, [..]{.if-changed} when its source
-- differs from that commit (Makefile: WEAVE's -M commit, -M changed).
local function conditional(el)
  local keep = nil
  if has_class(el, "only-latex") then keep = is_latex
  elseif has_class(el, "only-html") then keep = not is_latex
  elseif has_class(el, "if-commit") then keep = build.commit ~= ""
  elseif has_class(el, "if-no-commit") then keep = build.commit == ""
  elseif has_class(el, "if-changed") then keep = build.commit ~= "" and build.changed end
  if keep == nil then return nil end
  return keep and el.content or {}
end

local function number_book(doc)
  local num = {}              -- the numbers of the headings open, pandoc's way
  local appendices, latex_appendix = 0, false
  local in_appendix = false
  local chapter, figures, tables = "0", 0, 0
  local where = ""            -- the section a mark of the index is in
  local function mark(el)
    if not has_class(el, "idx") then return conditional(el) end
    local key = el.attributes.key or pandoc.utils.stringify(el.content)
    index_marks = index_marks + 1
    if is_latex then
      local out = pandoc.List(el.content)
      out:insert(pandoc.RawInline("latex", "\\index{" .. makeindex_key(key) .. "}"))
      return out
    end
    local anchor = "idx-" .. index_marks
    index_entries[key] = index_entries[key] or pandoc.List()
    index_entries[key]:insert({anchor, where})
    return pandoc.Span(el.content, pandoc.Attr(anchor))
  end
  local parts_seen = 0
  -- A level-1 heading of class "book-part" begins a part of the book
  -- (Part I, Part II), which numbers nothing and leaves the appendices'
  -- letters running: in LaTeX it is \part (and \nwcompact, which sets
  -- the rest of the book compact, if it has class "compact"); in HTML it
  -- says "Part I." before its title.
  local function book_part(b)
    parts_seen = parts_seen + 1
    local roman = ({"I", "II", "III", "IV"})[parts_seen] or fail("more than four parts")
    if is_latex then
      local title = pandoc.write(pandoc.Pandoc({pandoc.Plain(b.content)}), "latex")
      return pandoc.RawBlock("latex", "\\part{" .. title .. "}\\label{" .. b.identifier .. "}"
                             .. (has_class(b, "compact") and "\\nwcompact" or ""))
    end
    b.content:insert(1, pandoc.Space())
    b.content:insert(1, pandoc.Str("Part " .. roman .. "."))
    return b
  end
  local function heading(b)
    if b.level == 1 then
      in_appendix = has_class(b, "appendix")
      if in_appendix then
        appendices = appendices + 1
        if appendices > #LETTERS then fail("more appendices than letters") end
      end
    end
    if in_appendix and has_class(b, "unnumbered")
       and (b.level <= 2 or (b.level == 3 and #num >= 2)) then
      b.classes = b.classes:filter(function(c) return c ~= "unnumbered" end)
    end
    if has_class(b, "unnumbered") then
      if b.level == 1 then where = pandoc.utils.stringify(b.content) end
      return
    end
    if #num >= b.level then
      for k = #num, b.level + 1, -1 do num[k] = nil end
      num[b.level] = num[b.level] + 1
    else
      for k = #num + 1, b.level - 1 do num[k] = 0 end
      num[b.level] = 1
    end
    if b.level == 1 then
      num[1] = in_appendix and appendices or num[1]
      chapter = in_appendix and LETTERS:sub(appendices, appendices) or tostring(num[1])
      figures, tables = 0, 0
    end
    local parts = {chapter}
    for k = 2, b.level do parts[k] = tostring(num[k]) end
    local number = table.concat(parts, ".")
    where = number
    if in_appendix and not is_latex then b.attributes.number = number end
    local kind = b.level > 1 and "Section" or (in_appendix and "Appendix" or "Chapter")
    if b.identifier ~= "" then heading_ref[b.identifier] = {kind, number} end
  end
  local function visit(list)
    local out = pandoc.List()
    local i = 1
    while i <= #list do
      local b = list[i]
      if b.t == "Header" and b.level == 1 and has_class(b, "book-part") then
        b = book_part(b)
      elseif b.t == "Header" then
        if b.level == 1 and has_class(b, "appendix") and is_latex and not latex_appendix then
          out:insert(pandoc.RawBlock("latex", "\\appendix"))
          latex_appendix = true
        end
        heading(b)
      elseif b.t == "Para" and #b.content == 1 and b.content[1].t == "Image"
             and b.content[1].title:match("^fig:") then
        figures = figures + 1
        local img, number = b.content[1], chapter .. "." .. figures
        if img.identifier ~= "" then figure_number[img.identifier] = number end
        if not is_latex then
          img.caption:insert(1, pandoc.Space())
          img.caption:insert(1, pandoc.Strong({pandoc.Str("Figure " .. number .. ".")}))
        end
      elseif b.t == "Table" then
        local caption = caption_inlines(b)
        local after = list[i + 1]
        if #caption == 0 and after and after.t == "Para" and after.content[1]
           and after.content[1].t == "Str" and after.content[1].text == "Table:" then
          caption = after.content:clone()
          caption:remove(1)
          while caption[1] and caption[1].t == "Space" do caption:remove(1) end
          i = i + 1
        end
        if #caption == 0 then
          fail("a table without a caption (a paragraph \"Table: ...\" after it): "
               .. pandoc.utils.stringify(b.head.rows[1] or {}):sub(1, 60))
        end
        local id = caption_id(caption)
        if id then b.identifier = id end
        if b.identifier == "" then fail("a table without an identifier: "
                                        .. pandoc.utils.stringify(caption):sub(1, 60)) end
        if table_number[b.identifier] then fail("two tables tbl:" .. b.identifier) end
        tables = tables + 1
        local number = chapter .. "." .. tables
        table_number[b.identifier] = number
        if not is_latex then
          caption:insert(1, pandoc.Space())
          caption:insert(1, pandoc.Strong({pandoc.Str("Table " .. number .. ".")}))
        end
        b.caption.long = {pandoc.Plain(caption)}
      elseif b.t == "Div" then
        b.content = visit(b.content)
      end
      if b.t ~= "Div" and b.t ~= "Header" then b = pandoc.walk_block(b, {Span = mark}) end
      out:insert(b)
      i = i + 1
    end
    return out
  end
  doc.blocks = visit(doc.blocks)
  -- the colophon (a chapter of the source, {#colophon}) goes last
  local first, last = nil, nil
  for k, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.level == 1 then
      if first and not last then last = k - 1 end
      if b.identifier == "colophon" then first = k end
    end
  end
  if first then
    last = last or #doc.blocks
    local moved = pandoc.List()
    for k = first, last do moved:insert(doc.blocks[k]) end
    for k = last, first, -1 do doc.blocks:remove(k) end
    doc.blocks:extend(moved)
  end
  -- the subject index, after the references (the end of Part I), or
  -- else before the index of chunks
  local index = pandoc.List()
  if is_latex then
    index:insert(pandoc.RawBlock("latex", "\\printindex"))
  else
    local keys = {}
    for k in pairs(index_entries) do table.insert(keys, k) end
    table.sort(keys, function(a, b)
      local x, y = a:lower(), b:lower()
      if x == y then return a < b end
      return x < y
    end)
    local items = pandoc.List()
    for _, k in ipairs(keys) do
      local line, seen = pandoc.List({pandoc.Str(k)}), {}
      for _, place in ipairs(index_entries[k]) do
        if not seen[place[2]] then
          seen[place[2]] = true
          line:insert(pandoc.Str(","))
          line:insert(pandoc.Space())
          line:insert(pandoc.Link({pandoc.Str(place[2])}, "#" .. place[1]))
        end
      end
      items:insert({pandoc.Plain(line)})
    end
    index:insert(pandoc.Header(1, {pandoc.Str("Index")}, pandoc.Attr("index", {"unnumbered"})))
    index:insert(pandoc.Div({pandoc.BulletList(items)}, pandoc.Attr("", {"nwindex"})))
  end
  local at, after_references = nil, false
  for k, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.identifier == "index-of-chunks" then at = k; break end
    if after_references and (b.t == "Header" and b.level == 1
                             or b.t == "RawBlock" and b.text:match("^\\part")) then
      at = k; break
    end
    if b.t == "Header" and b.identifier == "references" then after_references = true end
  end
  -- (a document without one, such as a test's, gets the index at its end,
  -- and none if it marks no term)
  if index_marks > 0 or at then
    at = at or #doc.blocks + 1
    for k = #index, 1, -1 do doc.blocks:insert(at, index[k]) end
  end
  -- LaTeX: the indexes of chunks and identifiers, after a part set
  -- compact, are set as the book's first part is, each running on after
  -- what comes before it (weave-preamble.tex)
  if is_latex then
    for k, b in ipairs(doc.blocks) do
      if b.t == "Header" and b.identifier == "index-of-chunks" then
        doc.blocks:insert(k, pandoc.RawBlock("latex", "\\nwbackmatter\\nwrunon"))
        break
      end
    end
    for k, b in ipairs(doc.blocks) do
      if b.t == "Header" and b.identifier == "index-of-identifiers" then
        doc.blocks:insert(k, pandoc.RawBlock("latex", "\\nwrunon"))
        break
      end
    end
  end
  return doc
end

local function reference(el)
  local c = el.citations[1]
  local kind, id = c.id:match("^(%a+):(.+)$")
  if kind ~= "fig" and kind ~= "tbl" and kind ~= "sec" then return nil end
  if #el.citations > 1 then fail("one reference at a time: " .. pandoc.utils.stringify(el)) end
  local word, number, target
  if kind == "fig" then
    word, number, target = "Figure", figure_number[c.id], c.id
    if not number then fail("a reference to no figure: @" .. c.id) end
  elseif kind == "tbl" then
    word, number, target = "Table", table_number[c.id], c.id
    if not number then fail("a reference to no table: @" .. c.id) end
  else
    local h = heading_ref[id]
    if not h then fail("a reference to no numbered heading: @" .. c.id) end
    word, number, target = h[1], h[2], id
  end
  local bracketed = c.mode == "NormalCitation"
  if is_latex then
    local tex = word .. "~\\ref{" .. target .. "}"
    if kind == "sec" then
      tex = tex .. (bracketed and ", p.~" or " (p.~") .. "\\pageref{" .. target .. "}"
                .. (bracketed and "" or ")")
    end
    return pandoc.RawInline("latex", bracketed and "(" .. tex .. ")" or tex)
  end
  local link = pandoc.Link({pandoc.Str(word), pandoc.Str("\u{a0}" .. number)}, "#" .. target)
  if bracketed then return {pandoc.Str("("), link, pandoc.Str(")")} end
  return link
end

-- LaTeX: inline code holding ^ is written here, because pandoc writes ^ as
-- \^{}, a circumflex accent, which prints and copies as a lone accent.
local function latex_code_with_caret(el)
  if not is_latex or not el.text:find("^", 1, true) then return nil end
  local special = {["\\"] = "\\textbackslash{}", ["{"] = "\\{", ["}"] = "\\}",
                   ["^"] = "\\textasciicircum{}", ["~"] = "\\textasciitilde{}",
                   ["_"] = "\\_", ["#"] = "\\#", ["$"] = "\\$", ["%"] = "\\%",
                   ["&"] = "\\&", ["-"] = "-{}"}
  return pandoc.RawInline("latex", "\\texttt{" .. el.text:gsub("[\\{}^~_#$%%&-]", special) .. "}")
end

-- LaTeX: a ^ in prose likewise, as the character
local function latex_str_with_caret(el)
  if not is_latex or not el.text:find("^", 1, true) then return nil end
  local out = pandoc.List()
  for part, caret in el.text:gmatch("([^^]*)(%^?)") do
    if part ~= "" then out:insert(pandoc.Str(part)) end
    if caret ~= "" then out:insert(pandoc.RawInline("latex", "\\textasciicircum{}")) end
  end
  return out
end

-- LaTeX: the room a section's heading needs at the foot of a page: its
-- own (four lines, with the space around it) and at least three lines
-- under it (a longer paragraph goes on over the page), or, when a short
-- paragraph comes before a chunk that may not break there, the
-- paragraph and the chunk's lines up to its first breakpoint (the whole
-- of a chunk of 15 lines or fewer, else 4; in Part II, set compact,
-- where any chunk of 4 lines or more may break after its second, 2),
-- and the chunk's head.  The paragraph's lines are counted at
-- 75 characters a line (the longest line's), so as not to count a line
-- too many.  Header (below) writes it.
function heading_room(blocks)
  if not is_latex then return nil end
  local compact = false
  for i, b in ipairs(blocks) do
    if b.t == "Header" and has_class(b, "compact") then compact = true end
    if b.t == "Header" and b.level > 1 then
      local need, k = 0, i + 1
      while blocks[k] and blocks[k].t == "Para" and need < 3 do
        -- (no line alone at a page's foot or head: a paragraph of four
        -- lines breaks only after its second, one of five or more after
        -- its third)
        local lines = math.ceil(utf8.len(pandoc.utils.stringify(blocks[k])) / 75)
        need = need + (lines == 4 and 4 or math.min(lines, 3 - need))
        k = k + 1
      end
      local c = blocks[k]
      if need < 3 and c and c.t == "Div" and has_class(c, "nwchunk") then
        local code
        pandoc.walk_block(c, { CodeBlock = function(x) code = code or x end })
        if code then
          local _, n = code.text:gsub("\n", "")
          n = n + 1
          if compact then
            need = need + 2 + (n < 4 and n or 2)
          else
            need = need + 2 + (n <= 15 and n or 4)
          end
        end
      end
      if need + 4 > 6 then b.attributes["room"] = tostring(need + 4) end
    end
  end
  return blocks
end

-- LaTeX: the number of lines of a code block, for the rules of where it
-- may break across pages (weave-preamble.tex, \nwcodelines), and the
-- lines a page may not begin with: a blank line, or one that only
-- closes (or opens) a block, "}" or "};" or "{" (counted from 0); and
-- whether its lines are numbered (a chunk's are)
function latex_code_lines(el)
  local text = el.text:gsub("%s+$", "")
  local n, lone = 0, {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if n > 0 and line:match("^[%s{}%(%)%[%];,]*$") then lone[#lone + 1] = n end
    n = n + 1
  end
  return pandoc.RawBlock("latex", "\\nwcodelines{" .. n .. "}{,"
    .. table.concat(lone, ",") .. ",}{" .. (has_class(el, "numberLines") and 1 or 0) .. "}")
end

-- LaTeX: a chunk begins with its number and its name, which the running
-- head of a page shows when the chunk continues there.  The name is the
-- head's text without the number and the closing "≡" or "+≡".
function latex_chunk_begin(el)
  local number, name = nil, pandoc.List()
  pandoc.walk_block(el.content[1], { Span = function(s)
    if has_class(s, "chunkhead") then
      for _, x in ipairs(s.content) do
        if x.t == "Span" and has_class(x, "chunknum") then
          number = pandoc.utils.stringify(x)
        else name:insert(x) end
      end
    end
  end })
  if not number then fail("a chunk without a number") end
  local last = name[#name]
  if last and last.t == "Str" then
    last.text = last.text:gsub("%+?≡$", "")
    if last.text == "" then name:remove(#name) end
  end
  while #name > 0 and name[#name].t == "Space" do name:remove(#name) end
  while #name > 0 and name[1].t == "Space" do name:remove(1) end
  local text = pandoc.write(pandoc.Pandoc({pandoc.Plain(name)}), "latex")
  text = text:gsub("^%s*⟨", ""):gsub("⟩%s*$", "")
  return "\\begin{nwchunk}{" .. number .. "}{" .. text .. "}"
end

-- LaTeX: tables.  A table whose widest cells fit the line side by side
-- is set small, each column as wide as its widest cell, so no cell
-- wraps.  A wider one is set smaller, its columns closer together, and
-- its columns are of two kinds.  A column of short data (numbers, a few
-- words: at most SHORT characters) is as wide as its widest datum or its
-- header's longest word, and its header is stacked in lines that fit
-- that width, so that neither its data nor its header's words wrap.  A
-- column of long text is a paragraph (tabularx's X, ragged right), and
-- the text columns share what the short ones leave of the line.  A table
-- of fewer than ten rows is a box that never breaks across pages
-- (tabular, tabularx); a longer one is a longtable (or xltabular).
local LINE_CHARS = 66     -- characters of \\small type in the text block
local COLUMN_GAP = 2.7    -- the space between two columns, in characters
local SHORT = 16
local FOOT_CHARS = 80     -- characters of \footnotesize type in the text block
local FOOT_GAP = 1.3      -- the space between two columns there (\tabcolsep 3pt)
local function words_of(inlines)    -- lists of inlines between spaces
  local words, word = {}, pandoc.List()
  for _, x in ipairs(inlines) do
    if x.t == "Space" or x.t == "SoftBreak" or x.t == "LineBreak" then
      if #word > 0 then table.insert(words, word); word = pandoc.List() end
    else word:insert(x) end
  end
  if #word > 0 then table.insert(words, word) end
  return words
end
local function chars(inlines)
  return utf8.len(pandoc.utils.stringify(inlines)) or 0
end
-- a header stacked in lines of at most WIDTH characters (the lines, as
-- lists of inlines)
local function header_lines(blocks, width)
  local inlines = pandoc.List()
  for _, b in ipairs(blocks) do if b.content then inlines:extend(b.content) end end
  local lines, line, n = {}, pandoc.List(), 0
  for _, w in ipairs(words_of(inlines)) do
    local k = chars(w)
    if #line > 0 and n + 1 + k > width then
      table.insert(lines, line); line, n = pandoc.List(), 0
    end
    if #line > 0 then line:insert(pandoc.Space()); n = n + 1 end
    line:extend(w); n = n + k
  end
  if #line > 0 then table.insert(lines, line) end
  return lines
end
local function lines_of(blocks, width) return #header_lines(blocks, width) end
-- the same, as LaTeX
local function stacked(blocks, width, align, top)
  local tex = {}
  for _, l in ipairs(header_lines(blocks, width)) do
    table.insert(tex, (pandoc.write(pandoc.Pandoc({pandoc.Plain(l)}), "latex"):gsub("%s+$", "")))
  end
  return pandoc.RawInline("latex", (top and "\\nwstacktop{" or "\\nwstack{") .. align .. "}{"
                           .. table.concat(tex, "\\\\") .. "}")
end
function latex_table(el)
  local rows, widest, data, word = 0, {}, {}, {}
  for i = 1, #el.colspecs do widest[i], data[i], word[i] = 0, 0, 0 end
  local function measure(list, is_head)
    for _, row in ipairs(list) do
      rows = rows + 1
      local col = 1
      for _, cell in ipairs(row.cells) do
        local n = chars(cell.contents)
        if cell.col_span == 1 then
          widest[col] = math.max(widest[col], n)
          if is_head then
            for _, b in ipairs(cell.contents) do
              for _, w in ipairs(words_of(b.content or {})) do word[col] = math.max(word[col], chars(w)) end
            end
          else data[col] = math.max(data[col], n) end
        end
        col = col + cell.col_span
      end
    end
  end
  measure(el.head.rows, true); measure(el.foot.rows)
  for _, body in ipairs(el.bodies) do measure(body.head, true); measure(body.body) end
  local natural = 0
  for _, w in ipairs(widest) do natural = natural + w + COLUMN_GAP end
  local fits = natural <= LINE_CHARS
  local letter = { AlignRight = "r", AlignCenter = "c" }
  local spec, any_text = {}, false
  for i, c in ipairs(el.colspecs) do
    el.colspecs[i] = {c[1], pandoc.ColWidthDefault}
    if fits or data[i] <= SHORT then spec[i] = letter[c[1]] or "l"
    else spec[i] = ">{\\raggedright\\arraybackslash}X"; any_text = true end
  end
  if not fits then       -- stack the headers of the short columns
    -- each header in at most two lines, as narrow as that and its data allow
    local head_width = {}
    for _, row in ipairs(el.head.rows) do
      local col = 1
      for _, cell in ipairs(row.cells) do
        if cell.col_span == 1 and data[col] <= SHORT then
          local width = math.max(data[col], word[col])
          while lines_of(cell.contents, width) > 2 do width = width + 1 end
          head_width[col] = math.max(head_width[col] or 0, width)
        end
        col = col + cell.col_span
      end
    end
    -- A text column narrower than its longest word would hyphenate a
    -- name; then a column of ranges ("0.4142 to 0.4223") breaks each
    -- range after its "to", the widest such column first, until the text
    -- columns have room (in characters of the smaller type, FOOT_CHARS a
    -- line, FOOT_GAP between columns).
    local function body_cells(col, f)
      for _, body in ipairs(el.bodies) do
        for _, row in ipairs(body.body) do
          if row.cells[col] then f(row.cells[col]) end
        end
      end
    end
    local longest, short_sum, ranges = 0, 0, {}
    for i = 1, #spec do
      if data[i] <= SHORT then
        short_sum = short_sum + (head_width[i] or data[i])
        local ok, broken = true, 0
        body_cells(i, function(cell)
          local text = pandoc.utils.stringify(cell.contents)
          local a, b = text:match("^(%S+ to) (%S+)$")
          if a then broken = math.max(broken, utf8.len(a), utf8.len(b))
          elseif text:match("^%S*$") then broken = math.max(broken, utf8.len(text))
          else ok = false end
        end)
        if ok and broken < data[i] then ranges[i] = broken end
      else
        body_cells(i, function(cell)
          for _, b in ipairs(cell.contents) do
            for _, w in ipairs(words_of(b.content or {})) do longest = math.max(longest, chars(w)) end
          end
        end)
      end
    end
    local room = FOOT_CHARS - short_sum - #spec * FOOT_GAP
    while any_text and room < longest + 1 do
      local best, gain = nil, 0
      for i, broken in pairs(ranges) do
        local width = math.max(broken, word[i])
        for _, row in ipairs(el.head.rows) do
          local cell = row.cells[i]
          if cell then while lines_of(cell.contents, width) > 2 do width = width + 1 end end
        end
        local g = (head_width[i] or data[i]) - width
        if g > gain then best, gain = i, g end
      end
      if not best then break end
      data[best] = ranges[best]; ranges[best] = nil
      head_width[best] = (head_width[best] or 0) - gain
      room = room + gain
      body_cells(best, function(cell)
        cell.contents = {pandoc.Plain({stacked(cell.contents, data[best], spec[best], true)})}
      end)
    end
    for _, row in ipairs(el.head.rows) do
      local col = 1
      for _, cell in ipairs(row.cells) do
        if cell.col_span == 1 and data[col] <= SHORT then
          local width = math.max(data[col], word[col])
          while lines_of(cell.contents, width) > 2 do width = width + 1 end
          cell.contents = {pandoc.Plain({stacked(cell.contents, width, spec[col])})}
        end
        col = col + cell.col_span
      end
    end
  end
  -- the caption: above the table, numbered by LaTeX, with the table's
  -- label; after the table, \nwtableend writes the page it ends on to
  -- the .aux file (for tests/pdf_layout.py)
  local caption = caption_inlines(el)
  local label = "\\label{" .. el.identifier .. "}"
  el.caption.long = {}
  local tex = pandoc.write(pandoc.Pandoc({el}), "latex")
  local a, b = tex:find("\\begin{longtable}%[%]{@{}[lrc]*@{}}")
  if not a then fail("a table pandoc did not write as a longtable") end
  local env = "longtable"
  if rows < 10 then env = any_text and "tabularx" or "tabular"
  elseif any_text then env = "xltabular" end
  local width = (env == "tabularx" or env == "xltabular") and "{\\linewidth}" or ""
  tex = tex:sub(1, a - 1) .. "\\begin{" .. env .. "}" .. width .. "{@{}" .. table.concat(spec) .. "@{}}"
        .. tex:sub(b + 1):gsub("\\end{longtable}", "\\end{" .. env .. "}")
  local size = fits and "\\small" or "\\footnotesize\\setlength{\\tabcolsep}{3pt}"
  local ends = "\\nwtableend{" .. el.identifier .. "}{" .. rows .. "}"
  local text = pandoc.write(pandoc.Pandoc({pandoc.Plain(caption)}), "latex"):gsub("%s+$", "")
  if rows < 10 then      -- a float: it never breaks
    tex = tex:gsub("\n\\end[a-z]*head\n", "\n"):gsub("\n\\end[a-z]*foot\n", "\n")
    return {pandoc.RawBlock("latex", "\\begin{table}[tbp]\n\\caption{" .. text .. label .. "}\n{"
             .. size .. "\n\\noindent\n" .. tex .. "\n}" .. ends .. "\n\\end{table}")}
  end
  -- a longtable, which may break: its caption above it, with room
  -- for the caption and the table's first rows on the page.  The
  -- caption is set in a group of its own: \captionof sets the caption's
  -- paragraph spacing (none), and outside a group that stayed for the
  -- rest of the book (from chapter 4 on, paragraphs ran together)
  return {pandoc.RawBlock("latex", "\\FloatBarrier"),
          pandoc.RawBlock("latex", "\\Needspace{10\\baselineskip}\n{\\captionof{table}{" .. text .. label
            .. "}}\\nopagebreak\n{" .. size .. "\\setlength{\\LTpre}{0pt}\n" .. tex .. "\n}" .. ends)}
end

-- an SVG figure's text, and the width it is drawn at, in its pixels
local function svg_of(src)
  local path = numbers_dir .. "/" .. src
  local svg = read_file(path)
  if not svg then fail("cannot read the figure " .. path) end
  local width = svg:match("<svg[^>]-%swidth=\"([%d.]+)")
  if not width then fail("no width in " .. path) end
  return svg, tonumber(width)
end

-- HTML: an SVG figure's width and least width.  SMALL_PX is the page's
-- small print (weave.css: 0.8 of the 17 px text, as in "Used in").  The
-- figure is shown at the width it is drawn at, or wider if its smallest
-- label is drawn smaller than the small print; the least width keeps
-- that label at the small print's size.  weave.css lets the image shrink
-- to the page, down to the least width; below it the figure scrolls.
local SMALL_PX = 13.6
local function widths_of(svg, width)
  local smallest = math.huge
  for size in svg:gmatch('font%-size[=:]%s*"?([%d.]+)') do
    smallest = math.min(smallest, tonumber(size))
  end
  if smallest == math.huge then smallest = SMALL_PX end   -- no text
  local least = math.ceil(width * SMALL_PX / smallest)
  return math.max(math.ceil(width), least), least
end

-- The phone's drawing of a figure, fig/narrow/NAME.svg, if the program
-- drew one (save_figure in the program)
local function narrow_src(src)
  local narrow = src:gsub("^(.*/)([^/]*)$", "%1narrow/%2")
  if narrow ~= src and read_file(numbers_dir .. "/" .. narrow) then
    return narrow
  end
end

local function html_figure_width(el)
  if is_latex or not el.src:match("%.svg$") then return nil end
  local svg, width = svg_of(el.src)
  local shown, least = widths_of(svg, width)
  local style = string.format("--width: %dpx; --least: %dpx", shown, least)
  local narrow = narrow_src(el.src)
  if narrow then
    local nsvg, nwidth = svg_of(narrow)
    local nshown, nleast = widths_of(nsvg, nwidth)
    style = style .. string.format("; --narrow-width: %dpx; --narrow-least: %dpx",
                                   nshown, nleast)
  end
  el.attributes.style = style
  return el
end

-- HTML: a figure drawn for a phone too is a <picture>: the browser
-- shows the narrow drawing below NARROW_BELOW, where the page (the window
-- less weave.css's two gutters of 1rem) is narrower than the widest
-- figure, FIGURE_WIDTH; weave.css sizes the image by the same query.
-- Both drawings are embedded, as pandoc embeds an image.
local NARROW_BELOW = "(max-width: 49.49rem)"
local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local function base64(s)
  local out = {}
  for i = 1, #s, 3 do
    local a, b, c = s:byte(i, i + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    local four = {}
    for k = 4, 1, -1 do
      local d = n % 64
      four[k] = B64:sub(d + 1, d + 1)
      n = (n - d) // 64
    end
    if not c then four[4] = "=" end
    if not b then four[3] = "=" end
    out[#out + 1] = table.concat(four)
  end
  return table.concat(out)
end
local function html_attr(s)
  return (s:gsub("[&<>\"]", {["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
                              ['"'] = "&quot;"}))
end
-- A drawing as the page embeds it, its file read once: its bytes as a
-- data URI, and its width and height, written beside it so that the
-- browser reserves its box before it has read the drawing: the image is
-- then read only as it nears the window (loading="lazy"), and nothing
-- below it moves when it comes.
local function svg_embedded(src)
  local svg = svg_of(src)
  local head = svg:match("<svg[^>]*>")
  local width, height = head:match('%swidth="([%d.]+)"'), head:match('%sheight="([%d.]+)"')
  if not (width and height) then fail("no width and height in " .. src) end
  return string.format('width="%s" height="%s"', width, height),
         "data:image/svg+xml;base64," .. base64(svg)
end
local function html_picture(el)
  local img = #el.content == 1 and el.content[1]
  if not (img and img.t == "Image" and img.title:match("^fig:")) then return nil end
  local narrow = narrow_src(img.src)
  if not narrow then return nil end
  local caption = pandoc.write(pandoc.Pandoc({pandoc.Plain(img.caption)}), "html5")
  local narrow_box, narrow_data = svg_embedded(narrow)
  local box, data = svg_embedded(img.src)
  return pandoc.RawBlock("html", string.format(
    '<figure>\n<picture><source media="%s" %s srcset="%s" />' ..
    '<img %s loading="lazy" src="%s" id="%s" style="%s" alt="%s" /></picture>\n' ..
    '<figcaption aria-hidden="true">%s</figcaption>\n</figure>',
    NARROW_BELOW, narrow_box, narrow_data, box, data,
    html_attr(img.identifier), html_attr(img.attributes.style or ""),
    html_attr(pandoc.utils.stringify(img.caption)), (caption:gsub("%s+$", ""))))
end

-- LaTeX: every figure at one scale, FIGURE_WIDTH pixels (svg.c) to the
-- width of the text, so that the figures' one size of type prints at one
-- size: a figure W pixels wide is W/760 of the text's width (pandoc
-- writes a percentage as that fraction of \textwidth, which in a figure
-- is the \linewidth)
local FIGURE_WIDTH = 760
local function latex_figure(el)
  if el.src:match("%.svg$") then
    local _, width = svg_of(el.src)
    local share = width / FIGURE_WIDTH
    if share > 1 then fail(el.src .. " is wider than " .. FIGURE_WIDTH .. " pixels") end
    el.attributes.width = string.format("%.2f%%", 100 * share)
    el.src = el.src:gsub("%.svg$", ".pdf")
  end
  return el
end

-- A column of numbers is set flush right: one whose body cells are more
-- often numbers ("12", "-0.5", "1,024", "3.2e-4", "97%", "2x") than other
-- text (a digit in code, such as the token `5`, is not a number; a row
-- "all four" among heads 0 to 3 goes to the right with them).
-- In HTML a table gets no column widths: weave.css lets it be as wide as
-- its cells, up to the page, and scroll beyond.
local function is_number(s)
  s = s:gsub("\u{2212}", "-"):gsub("\u{00d7}", "x"):gsub("^%s+", ""):gsub("%s+$", "")
  return s:match("^[-+]?%d[%d,]*%.?%d*[eE]?[-+]?%d*[%%x]?$") ~= nil
      or s:match("^[-+]?%.%d+$") ~= nil
end
local function align_numbers(el)
  local specs = el.colspecs
  for col, spec in ipairs(specs) do
    local numbers, others = 0, 0
    for _, body in ipairs(el.bodies) do
      for _, row in ipairs(body.body) do
        local cell = row.cells[col]
        if cell then
          local text, code = pandoc.utils.stringify(cell.contents), false
          pandoc.walk_block(pandoc.Div(cell.contents), { Code = function() code = true end })
          if is_number(text) and not code then numbers = numbers + 1
          elseif text:match("%S") then others = others + 1 end
        end
      end
    end
    local align = numbers > others and pandoc.AlignRight or spec[1]
    -- HTML: no widths; a table is as wide as its cells (weave.css)
    specs[col] = {align, is_latex and spec[2] or pandoc.ColWidthDefault}
  end
  el.colspecs = specs
  return el
end

-- HTML: a figure's caption is also its image's alt text, which pandoc
-- hides from screen readers in the caption; a link there would be a link
-- hidden from them, so a reference in a caption is plain text
local function html_caption_unlinked(el)
  el.caption = pandoc.walk_inline(pandoc.Span(el.caption),
                                  { Link = function(l) return l.content end }).content
  return el
end

-- LaTeX: a formula in bold text (a run-in heading such as "e^x.") in bold
local function latex_bold_math(el)
  if not is_latex then return nil end
  for i, m in ipairs(el.content) do
    if m.t == "Math" and m.mathtype == "InlineMath" then
      el.content[i] = pandoc.RawInline("latex", "{\\boldmath\\(" .. m.text .. "\\)}")
    end
  end
  return el
end

-- HTML: the formula's TeX, for book/katex.js
local function html_math(el)
  if is_latex then return nil end
  local escaped = el.text:gsub("[&<>\"]", {["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
                                             ['"'] = "&quot;"})
  local kind = el.mathtype == "DisplayMath" and "display" or "inline"
  return pandoc.RawInline("html", '<span class="math ' .. kind .. '">' .. escaped .. "</span>")
end

-- HTML: each chapter, and each section within it, is wrapped in a
-- <div class="part">, which the browser may leave undrawn while it is far
-- from the window (weave.css, page.html).
local function html_parts(blocks)
  local out, open = pandoc.List(), {}    -- open[level]: the part's blocks
  local function close(level)
    for _ = #open, level, -1 do
      local part = table.remove(open)
      local into = open[#open] or out
      into:insert(pandoc.RawBlock("html", '<div class="part">'))
      into:extend(part)
      into:insert(pandoc.RawBlock("html", "</div>"))
    end
  end
  for _, b in ipairs(blocks) do
    if b.t == "Header" and b.level <= 2 and (b.level == 1 or #open > 0) then
      close(b.level)
      open[b.level] = pandoc.List()
    end
    local into = open[#open] or out
    into:insert(b)
  end
  close(1)
  return out
end

local function check_missing()
  if #missing > 0 then
    local where = numbers_path and ("numbers file " .. numbers_path)
                  or "no numbers file given (use -M numbers=FILE)"
    fail("placeholder(s) without a value (" .. where .. "): "
         .. table.concat(missing, ", "))
  end
end

return {
  { Meta = function(m) load_numbers(m) end },
  { Div = function(el)        -- LaTeX: a chunk's head, read before it is rewritten
      if is_latex and has_class(el, "nwchunk") then
        el.attributes["latex-begin"] = latex_chunk_begin(el); return el
      end
    end },
  { Para = table_para, Plain = table_para },
  { Blocks = heading_room },
  { Pandoc = number_book },
  { Inlines = inlines,
    Code = function(el)      -- code in chunk names (class nwname) is left alone
      if not has_class(el, "nwname") then el.text = subst(el.text); return el end
    end,
    Math = function(el) el.text = subst_math(el.text); return el end },
  {
    CodeBlock = function(el)
      if has_class(el, "nwusemap") then return {} end
      if is_latex then return {latex_code_lines(el), el} end
    end,
    Image = function(el)
      if is_latex then return latex_figure(el) end
      return html_figure_width(el)
    end,
    Table = function(el)        -- numbers flush right; LaTeX: place waiting figures first
      el = align_numbers(el)
      if is_latex then return latex_table(el) end
      return el
    end,
    Strong = latex_bold_math,
    Header = function(el)
      if not is_latex then return nil end
      -- a section starts only where three lines fit under its heading
      if el.level > 1 then
        local lines = tonumber(el.attributes["room"]) or 6
        el.attributes["room"] = nil
        return {pandoc.RawBlock("latex", "\\Needspace{" .. lines .. "\\baselineskip}"), el}
      end
      -- an unnumbered chapter sets the running head
      if not has_class(el, "unnumbered") then return nil end
      local title = "{" .. pandoc.write(pandoc.Pandoc({pandoc.Plain(el.content)}), "latex") .. "}"
      return {el, pandoc.RawBlock("latex", "\\markboth" .. title .. title)}
    end,
    Span = function(el)
      if not is_latex then return nil end
      if has_class(el, "chunkhead") then return latex_wrap(el, "nwchunkhead") end
      if has_class(el, "chunkuses") then return latex_wrap(el, "nwchunkuses") end
      if has_class(el, "chunknum") then return latex_wrap(el, "nwchunknum") end
      if has_class(el, "chunkname") then return latex_wrap(el, "nwchunkname") end
    end,
    Div = function(el)
      if has_class(el, "exercise") then
        exercises = exercises + 1       -- numbered through the book
        local first = el.content[1]
        if first and (first.t == "Para" or first.t == "Plain") then
          first.content:insert(1, pandoc.Space())
          first.content:insert(1, pandoc.Strong({pandoc.Str("Exercise"),
            pandoc.Space(), pandoc.Str(exercises .. ".")}))
        end
        el.identifier = "exercise-" .. exercises
        el.attributes.uses = nil   -- for course/student.awk only
        if not is_latex then return el end
        local b = pandoc.List({pandoc.RawBlock("latex", "\\begin{nwexercise}")})
        b:extend(el.content)
        b:insert(pandoc.RawBlock("latex", "\\end{nwexercise}"))
        return b
      end
      if not is_latex then return nil end
      if has_class(el, "nwchunk") then
        local b = pandoc.List({pandoc.RawBlock("latex", el.attributes["latex-begin"])})
        b:extend(el.content)
        b:insert(pandoc.RawBlock("latex", "\\end{nwchunk}"))
        return b
      end
      if has_class(el, "nwindex") then
        local b = pandoc.List({pandoc.RawBlock("latex", "\\begin{nwindex}")})
        b:extend(el.content)
        b:insert(pandoc.RawBlock("latex", "\\end{nwindex}"))
        return b
      end
    end,
  },
  { Pandoc = function(doc)
      check_missing()
      if not is_latex then
        doc.blocks = html_parts(doc.blocks)
        doc.blocks:insert(pandoc.RawBlock("html",
          '<a class="to-contents" href="#TOC">Contents</a>'))
      end
      doc = doc:walk({ Cite = reference, Code = latex_code_with_caret,
                       Str = latex_str_with_caret, Math = html_math })
      return is_latex and doc
             or doc:walk({ Image = html_caption_unlinked }):walk({ Para = html_picture })
    end },
}
