/*
 * xml_text.h - text from a file or a user written as XML character data,
 * for the SVG pictures (vimana-et linkmap, vimana xval --plot).
 */
#ifndef VIMANA_UTIL_XML_TEXT_H
#define VIMANA_UTIL_XML_TEXT_H

#include "util/exported_names.h"

#include <stddef.h>
#include <stdio.h>

/* Writes s with markup characters escaped (& < > "), control bytes and
 * bytes that are not UTF-8 (XML forbids both) as '?'; at most `max` bytes
 * of s, cut between characters, then an ellipsis (U+2026). */
void xml_text(FILE *f, const char *s, size_t max);

#endif
