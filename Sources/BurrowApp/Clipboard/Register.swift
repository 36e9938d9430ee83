import ObjectGraph

/// What `y` copied or `m` cut, waiting for `p` (below the selection) or `P` (above it): the items by ID, the
/// outermost of the selection, with the titles the user saw (for messages once one is gone).
struct Register {
    enum Kind {
        /// `p` pastes a copy, and the register stays for the next paste.
        case copy
        /// `p` moves the items, and the register empties.
        case cut
    }

    let kind: Kind
    let items: [App.Named]
}
