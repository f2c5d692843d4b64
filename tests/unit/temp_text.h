/*
 * temp_text.h - a text file alone in a fresh temporary folder, for the unit
 * tests of readers that take a path and resolve other names beside it.
 */
#ifndef VIMANA_TESTS_TEMP_TEXT_H
#define VIMANA_TESTS_TEMP_TEXT_H

/* Writes text to NAME in a fresh folder /tmp/PREFIX.XXXXXX and returns the
 * file's path (free it with temp_text_remove). Fails the test when the
 * folder or the file cannot be made. */
char *temp_text_write(const char *prefix, const char *name, const char *text);

/* Removes the file of temp_text_write and its folder; frees path. */
void temp_text_remove(char *path);

#endif
