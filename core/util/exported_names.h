/*
 * util/exported_names.h - the names under which libvimana_util exports its
 * functions.
 *
 * The library is installed (libvimana_et and the backend toolkit link it),
 * so its symbols share one namespace with every program that links them: a
 * program defining its own arena_alloc would take over the library's
 * allocator. Every util header includes this file, which gives each
 * function a vimana_util_ prefix at the symbol level while the code keeps
 * its short names. A new exported function gets its line here (the
 * symbols test, tests/e2e/exported_symbols.sh, lists any that lacks one).
 */
#ifndef VIMANA_UTIL_EXPORTED_NAMES_H
#define VIMANA_UTIL_EXPORTED_NAMES_H

#define arena_alloc vimana_util_arena_alloc
#define arena_free vimana_util_arena_free
#define arena_init vimana_util_arena_init
#define arena_reset vimana_util_arena_reset
#define decimal_ratio vimana_util_decimal_ratio
#define dep_links_build vimana_util_dep_links_build
#define dep_links_cycle_text vimana_util_dep_links_cycle_text
#define dep_links_find_cycle vimana_util_dep_links_find_cycle
#define dirs_make vimana_util_dirs_make
#define file_digest_keep vimana_util_file_digest_keep
#define file_digest_of vimana_util_file_digest_of
#define file_same_bytes vimana_util_file_same_bytes
#define finite_number_parse vimana_util_finite_number_parse
#define hash_fnv1a vimana_util_hash_fnv1a
#define hash_fnv1a_str vimana_util_hash_fnv1a_str
#define huge_pages_advise vimana_util_huge_pages_advise
#define input_file_check vimana_util_input_file_check
#define input_file_open vimana_util_input_file_open
#define input_file_read vimana_util_input_file_read
#define json_check vimana_util_json_check
#define json_doc_load vimana_util_json_doc_load
#define json_doc_parse vimana_util_json_doc_parse
#define json_escape_decode vimana_util_json_escape_decode
#define json_hex4 vimana_util_json_hex4
#define json_hex_digit vimana_util_json_hex_digit
#define json_simple_escape vimana_util_json_simple_escape
#define json_text_position vimana_util_json_text_position
#define json_unicode_escape vimana_util_json_unicode_escape
#define key_order_sort vimana_util_key_order_sort
#define msg_escape vimana_util_msg_escape
#define msg_escape_n vimana_util_msg_escape_n
#define msg_one_line vimana_util_msg_one_line
#define or_die vimana_util_or_die
#define parent_dirs_make vimana_util_parent_dirs_make
#define path_vmsg vimana_util_path_vmsg
#define slab_alloc vimana_util_slab_alloc
#define slab_destroy vimana_util_slab_destroy
#define slab_free vimana_util_slab_free
#define slab_init vimana_util_slab_init
#define utf8_encode vimana_util_utf8_encode
#define utf8_valid vimana_util_utf8_valid
#define whole_number_parse vimana_util_whole_number_parse
#define xml_text vimana_util_xml_text

#endif
