-- sections.lua -- pandoc (2.17) Lua filter: the headings of one part of the
-- book (see nwsplit.awk) get the ids and section numbers they have in the
-- whole book.
--
--   -M sections=FILE -M part=pNN
--
-- FILE has one line per heading of the book, in order: part, id and number
-- ("-" for an unnumbered heading), as pandoc gave them when it read all the
-- headings together (the skeleton).  So a heading whose text repeats one
-- in another chapter keeps its suffix (-1, -2 ...), and links to it from
-- anywhere in the book resolve.  In HTML the number is written as pandoc's
-- --number-sections writes it.  The part must have exactly the headings the
-- file lists for it, or the filter fails.

local is_html = FORMAT:match("html") ~= nil
local want = nil      -- list of {id, number} for this part
local part = nil
local k = 0

local function fail(msg) error("sections.lua: " .. msg, 0) end

local function load(meta)
  if meta.sections == nil or meta.part == nil then
    fail("use -M sections=FILE -M part=NAME")
  end
  local path = pandoc.utils.stringify(meta.sections)
  part = pandoc.utils.stringify(meta.part)
  local f = io.open(path, "r")
  if not f then fail("cannot read " .. path) end
  want = {}
  for line in f:lines() do
    local p, id, num = line:match("^(%S+)\t(%S+)\t(%S+)$")
    if p == part then want[#want + 1] = { id = id, num = num } end
  end
  f:close()
end

local function header(h)
  k = k + 1
  local w = want[k]
  if not w then fail(part .. ": more headings than the book's list (" .. #want .. ")") end
  h.identifier = w.id
  if is_html and w.num ~= "-" then
    h.attributes["number"] = w.num
    h.content:insert(1, pandoc.Space())
    h.content:insert(1, pandoc.Span({ pandoc.Str(w.num) },
                                    { class = "header-section-number" }))
  end
  return h
end

return {
  { Meta = load },
  { Header = header,
    Pandoc = function()
      if k ~= #want then
        fail(part .. ": " .. k .. " headings, the book's list has " .. #want)
      end
    end },
}
