/*
 * expect_text.h - the check of a writer's whole output, for the unit tests
 * of writers that capture it in memory (open_memstream).
 */
#ifndef VIMANA_TESTS_EXPECT_TEXT_H
#define VIMANA_TESTS_EXPECT_TEXT_H

/* Checks that got is want byte for byte, then frees got. When they differ
 * both are printed whole on lines of their own first: a text of many lines
 * is easier to compare there than in cmocka's message. */
void expect_text(char *got, const char *want);

#endif
