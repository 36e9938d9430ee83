// cmark-gfm as Swift sees it: the public API, the core extensions (task lists), and two readings of a node
// the public API lacks. Only the Outline target imports it.
#ifndef BURROW_CCMARKGFM_SHIM_H
#define BURROW_CCMARKGFM_SHIM_H

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
// node.h is the library's own struct layout, installed by libcmark-gfm-dev with the library it belongs to
// (its soname names the exact version, so a program built here runs only with the layout it was built for).
#include <cmark-gfm/node.h>
#include <cmark-gfm/parser.h>

/// The columns an item's content is indented by, from its parent's content column: the marker's own
/// indentation plus the marker and the blanks after it (CommonMark's "W + N"), as cmark decided them.
static inline int ccmark_item_content_offset(cmark_node *node) {
    return node->as.list.marker_offset + node->as.list.padding;
}

/// A paragraph's or heading's raw inline source as cmark read it: container prefixes, each line's leading
/// blanks, link reference definitions and a task item's box removed; lines end with a line feed.
static inline const unsigned char *ccmark_raw_content(cmark_node *node, int *size) {
    *size = node->content.size;
    return node->content.ptr;
}

/// The block is still open: lines to come may add to it (a closed one is final, as in the whole document).
static inline bool ccmark_node_is_open(cmark_node *node) {
    return (node->flags & CMARK_NODE__OPEN) != 0;
}

/// The document a parser is building, while it is fed: its closed blocks can be read and freed before the end.
static inline cmark_node *ccmark_parser_root(cmark_parser *parser) {
    return parser->root;
}

#endif
