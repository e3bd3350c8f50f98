# Turns the page's template, style and script (html/page.html, page.css,
# page.js) into one C file of NUL-terminated arrays, so that they are
# edited as HTML, CSS and JavaScript and still built into the binary
# (no file to find at run time, no xxd needed).
#   cmake -DSRC=html -DOUT=build/generated/html/assets.c -P html/embed.cmake
set(body "/* Generated from html/page.* by html/embed.cmake: do not edit. */\n")
foreach(part html css js)
  file(READ ${SRC}/page.${part} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(REGEX REPLACE "((0x..,){24})" "\\1\n    " hex "${hex}")
  string(APPEND body "const char html_page_src_${part}[] = {\n    ${hex}0x00\n};\n")
endforeach()
file(WRITE ${OUT} "${body}")
