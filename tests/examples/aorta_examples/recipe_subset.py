"""A reader for the YAML subset the example recipes use (mappings, block and flow lists, quoted
scalars), so the checker needs no packages."""

import re


def _scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(part) for part in inner.split(",")] if inner else []
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d*", text):
        return float(text)
    return None if text in ("", "~", "null") else text


def _strip_comment(line):
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index].rstrip()
    return line.rstrip()


def load_recipe_subset(text):
    """Parse the YAML subset the example recipes are written in; ValueError names the line."""
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        if line.strip():
            lines.append((number, len(line) - len(line.lstrip()), line.strip()))

    def block(start, indent):
        if start < len(lines) and lines[start][2].startswith("- "):
            items, index = [], start
            while index < len(lines) and lines[index][1] == indent and lines[index][2].startswith("- "):
                items.append(_scalar(lines[index][2][2:]))
                index += 1
            return items, index
        mapping, index = {}, start
        while index < len(lines) and lines[index][1] == indent:
            number, _, content = lines[index]
            key, sep, rest = content.partition(":")
            if not sep:
                raise ValueError(f"line {number}: expected 'key: value', got {content!r}")
            index += 1
            if rest.strip():
                mapping[key.strip()] = _scalar(rest)
            elif index < len(lines) and lines[index][1] > indent:
                mapping[key.strip()], index = block(index, lines[index][1])
            else:
                mapping[key.strip()] = None
        return mapping, index

    document, end = block(0, 0) if lines else ({}, 0)
    if end != len(lines):
        raise ValueError(f"line {lines[end][0]}: unexpected indentation")
    return document
