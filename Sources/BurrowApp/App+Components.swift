extension App {
    /// The components beside the list, in the order they settle: a new one is a type conforming to
    /// ``Component``, a stored property, and one entry here.
    var components: [any Component] { [detailsPane, doneFilter, search, clipboard, externalEditor] }
}
