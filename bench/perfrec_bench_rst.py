# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""The benchmarks' Markdown as reStructuredText, for doc/develop/perfrec.rst.

markdown_to_rst turns the paragraphs, bullet lists and pipe tables that
perfrec_bench_report.py and the other bench scripts write into RST that
Sphinx reads without a warning: tables become list-tables, inline code
literals, and what RST would read as markup is escaped.
"""

import html
import re
import textwrap

# Markdown to reStructuredText: what the tables above use (paragraphs, pipe
# tables, `code`, **strong**, *emphasis*, <br>, bullet lists), each written so
# that docutils reads the same text back, with no warning
MD_DELIM = re.compile(r'^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$')
MD_BULLET = re.compile(r'^[-*+]\s+')
MD_BR = re.compile(r'<br\s*/?>', re.I)
MD_ESCAPABLE = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
# What may come just before an inline markup start-string and just after an
# end-string (docutils' rules, ASCII part); anything else needs '\ ' between
RST_BEFORE = ' \t\n-:/\'"<([{'
RST_AFTER = ' \t\n-.,:;!?\\/\'")]}>'
# The start of a line that reStructuredText would take for an enumerated
# list item, and a line of one repeated punctuation character (a title's
# underline or a transition)
RST_ENUM = re.compile(r'^\(?([0-9]+|[A-Za-z]|[ivxlcdmIVXLCDM]+|#)([.)])(\s|$)')
RST_LINE = re.compile(r'^([!-/:-@\[-`{-~])\1* *$')
PARA_WIDTH = 79
CELL_WIDTH = 99


def md_code_span(text, pos):
    """The code span whose backticks start at @pos of @text: (its code, the
    index after it), or (None, the index after the backticks) if none ends"""
    run = len(text) - pos - len(text[pos:].lstrip('`'))
    close = re.compile(r'(?<!`)%s(?!`)' % ('`' * run)).search(text, pos + run)
    if not close:
        return None, pos + run
    code = text[pos + run:close.start()].replace('\n', ' ')
    if len(code) > 2 and code[0] == ' ' and code[-1] == ' ' and code.strip():
        code = code[1:-1]
    return code, close.end()


def md_closer(text, start, delim):
    """Where in @text, from @start, the @delim ('*' or '**') closing an
    emphasis opened just before @start is, outside code spans; -1 if none"""
    pos = start
    while pos < len(text):
        if text[pos] == '\\':
            pos += 2
        elif text[pos] == '`':
            pos = md_code_span(text, pos)[1]
        elif text.startswith(delim, pos) and pos > start and not text[pos - 1].isspace():
            if delim == '*' and text.startswith('**', pos):
                pos += 2
                continue
            return pos
        elif delim == '*' and text.startswith('**', pos):
            pos += 2
        else:
            pos += 1
    return -1


def md_inline_parse(text):
    """Split Markdown inline @text into [(kind, value)], kind being 'text',
    'code' (value: the code), 'strong' or 'em' (value: a list like this one)"""
    out = []
    plain = []
    pos = 0

    def flush():
        if plain:
            out.append(('text', ''.join(plain)))
            del plain[:]

    while pos < len(text):
        char = text[pos]
        if char == '\\' and pos + 1 < len(text) and text[pos + 1] in MD_ESCAPABLE:
            plain.append(text[pos + 1])
            pos += 2
            continue
        if char == '`':
            code, end = md_code_span(text, pos)
            if code is None:
                plain.append(text[pos:end])
            else:
                flush()
                out.append(('code', code))
            pos = end
            continue
        if char == '*':
            delim = '**' if text.startswith('**', pos) else '*'
            start = pos + len(delim)
            end = md_closer(text, start, delim)
            if end > start and not text[start].isspace():
                flush()
                out.append(('strong' if delim == '**' else 'em',
                            md_inline_parse(text[start:end])))
                pos = end + len(delim)
                continue
            plain.append(delim)
            pos = start
            continue
        plain.append(char)
        pos += 1
    flush()
    return out


def rst_text(text):
    """@text (Markdown's plain text, entities decoded) escaped for reStructuredText"""
    text = html.unescape(text)
    out = []
    for i, char in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else ''
        if char in '\\*`|' or (char == '_' and not nxt.isalnum()):
            out.append('\\')
        out.append(char)
    return ''.join(out)


def rst_inline(parts, nested=False):
    """reStructuredText of md_inline_parse()'s @parts (inside strong or
    emphasis when @nested: reStructuredText does not nest inline markup)"""
    rendered = []
    for kind, val in parts:
        if kind == 'text':
            rendered.append((False, rst_text(val)))
        elif kind == 'code':
            if nested or not val.strip() or '``' in val or val.endswith('`'):
                rendered.append((False, rst_text(val)))
            else:
                rendered.append((True, '``%s``' % val.strip()))
        else:
            inner = rst_inline(val, True)
            mark = '**' if kind == 'strong' else '*'
            rendered.append((False, inner) if nested else (True, mark + inner + mark))
    out = ''
    for i, (markup, val) in enumerate(rendered):
        if markup:
            if out and out[-1] not in RST_BEFORE:
                out += '\\ '
            nxt = rendered[i + 1][1][:1] if i + 1 < len(rendered) else ''
            out += val + ('\\ ' if nxt and nxt not in RST_AFTER else '')
        else:
            out += val
    return out


def rst_block_start(line):
    """@line, an inline-converted paragraph, made safe to start a block with:
    no list, option, field, comment, line block, title or literal marker"""
    if not line:
        return line
    if line.startswith(('``', '**', '\\')) or (line[0] == '*' and line[1:2].strip()):
        pass
    elif not line[0].isalnum():
        line = '\\' + line
    else:
        enum = RST_ENUM.match(line)
        if enum:
            line = line[:enum.start(2)] + '\\' + line[enum.start(2):]
    if line.endswith('::'):
        line = line[:-1] + '\\:'
    return line


def rst_wrap(line, first, rest, width):
    """@line filled to @width after @first (first line) and @rest (the
    others), breaking only outside inline literals and escaped spaces"""
    hold = re.sub(r'``.*?``|\\ ', lambda m: m.group(0).replace(' ', '\0'), line)
    lines = textwrap.wrap(hold, width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False)
    lines = [ln.replace('\0', ' ') for ln in lines]
    # A second line of one punctuation character repeated would underline
    # the first; a line ending in a backslash would escape the line break
    if (len(lines) > 1 and RST_LINE.match(lines[1].strip())) or \
            any(ln.endswith('\\') for ln in lines[:-1]) or not lines:
        return [first + line]
    return lines


def rst_para(text, first='', rest='', width=PARA_WIDTH):
    """Lines of Markdown paragraph @text as a reStructuredText one"""
    text = ' '.join(ln.strip() for ln in MD_BR.sub(' ', text).split('\n'))
    line = rst_block_start(rst_inline(md_inline_parse(text.strip())))
    return rst_wrap(line, first, rest, width) if line else [first.rstrip()]


def md_cells(line):
    """The cells of pipe-table row @line (unescaped '\\|' kept in them)"""
    line = line.strip()
    if line.startswith('|'):
        line = line[1:]
    if line.endswith('|') and not line.endswith('\\|'):
        line = line[:-1]
    cells = re.split(r'(?<!\\)\|', line)
    return [cell.replace('\\|', '|').strip() for cell in cells]


def rst_table(head, rows):
    """A list-table of Markdown cell texts @head and @rows"""
    out = ['.. list-table::', '   :header-rows: 1', '   :widths: auto', '']
    for row in [head] + rows:
        row = (row + [''] * len(head))[:len(head)]
        for col, cell in enumerate(row):
            out += rst_para(cell, '   * - ' if col == 0 else '     - ', ' ' * 7, CELL_WIDTH)
    return out


def markdown_to_rst(text):
    """reStructuredText of Markdown @text: paragraphs, pipe tables (as
    list-tables), bullet lists; inline code, strong, emphasis, <br>"""
    lines = text.replace('\t', '    ').split('\n')
    blocks = []
    pos = 0
    while pos < len(lines):
        line = lines[pos]
        if not line.strip():
            pos += 1
            continue
        if '|' in line and pos + 1 < len(lines) and MD_DELIM.match(lines[pos + 1]) and \
                '-' in lines[pos + 1] and \
                len(md_cells(lines[pos + 1])) == len(md_cells(line)):
            head = md_cells(line)
            rows = []
            pos += 2
            while pos < len(lines) and lines[pos].strip() and '|' in lines[pos]:
                rows.append(md_cells(lines[pos]))
                pos += 1
            blocks.append(rst_table(head, rows))
            continue
        if MD_BULLET.match(line):
            items = []
            while pos < len(lines) and lines[pos].strip():
                if MD_BULLET.match(lines[pos]):
                    items.append(MD_BULLET.sub('', lines[pos]))
                else:
                    items[-1] += '\n' + lines[pos]
                pos += 1
            block = []
            for item in items:
                block += rst_para(item, '- ', '  ')
            blocks.append(block)
            continue
        para = []
        while pos < len(lines) and lines[pos].strip():
            if para and '|' in lines[pos] and pos + 1 < len(lines) and \
                    MD_DELIM.match(lines[pos + 1]) and '-' in lines[pos + 1]:
                break
            para.append(lines[pos])
            pos += 1
        blocks.append(rst_para('\n'.join(para)))
    return '\n\n'.join('\n'.join(block) for block in blocks) + '\n' if blocks else ''
