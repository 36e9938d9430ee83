// cmark-gfm as Swift sees it: the public API, the core extensions (task lists), and two readings of a node
// the public API lacks. Only the Outline target imports it.
#ifndef BURROW_CCMARKGFM_SHIM_H
#define BURROW_CCMARKGFM_SHIM_H

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
// node.h is the library's own struct layout, installed by libcmark-gfm-dev with the library it belongs to
// (its soname names the exact version, so a program built here runs only with the layout it was built for).
#include <cmark-gfm/node.h>

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

#endif
