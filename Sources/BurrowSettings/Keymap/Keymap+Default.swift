extension Keymap {
    /// The default keys: vim letters and arrows, as terminal outliner users expect (docs/KEYMAP.md is made from them).
    public static let `default` = Keymap(
        sections: [
            Section(
                "Moving",
                [
                    KeyBinding("j <Down>", .moveDown, "Move down"),
                    KeyBinding("k <Up>", .moveUp, "Move up"),
                    KeyBinding("g <Home>", .first, "First item"),
                    KeyBinding("G <End>", .last, "Last item"),
                    KeyBinding("<PgDn>", .pageDown, "Page down"),
                    KeyBinding("<PgUp>", .pageUp, "Page up"),
                    KeyBinding("<C-d>", .halfPageDown, "Half a page down"),
                    KeyBinding("<C-u>", .halfPageUp, "Half a page up")
                ]),
            Section(
                "Levels",
                [
                    KeyBinding("l <Right> <Enter>", .drillIn, "Open the item's sub-items"),
                    KeyBinding("h <Left> <BS> <Esc>", .back, "Back up one level"),
                    KeyBinding("~", .backToTop, "Back to the top level")
                ]),
            Section(
                "Editing",
                [
                    KeyBinding("a :", .capture, "Quick capture: add items at the end (Enter adds, Esc leaves)"),
                    KeyBinding("o", .insertBelow, "Insert an item below"),
                    KeyBinding("O", .insertAbove, "Insert an item above"),
                    KeyBinding("e i <F2>", .rename, "Rename (Enter keeps, Esc cancels)"),
                    KeyBinding("d x <Del>", .delete, "Delete the item and its sub-items"),
                    KeyBinding("<Space>", .toggleDone, "Toggle done"),
                    KeyBinding("K <S-Up> <A-Up>", .moveItemUp, "Move the item up"),
                    KeyBinding("J <S-Down> <A-Down>", .moveItemDown, "Move the item down"),
                    KeyBinding("> <Tab>", .indent, "Indent: into the item above"),
                    KeyBinding("< <S-Tab>", .outdent, "Outdent: out to the parent's level"),
                    KeyBinding("m", .cut, "Cut the selection, to move it with p or P"),
                    KeyBinding("p", .paste, "Paste below the selection: a copy (y), or what was cut (m)"),
                    KeyBinding("v", .visualRange, "Select a range: j/k extend it; d Space J K > < M y m act on all of it; Esc leaves"),
                    KeyBinding("Y", .duplicate, "Duplicate the item and its sub-items below it"),
                    KeyBinding("M", .movePicker, "Move the selection under an item found by typing (Enter moves)"),
                    KeyBinding("y", .copy, "Copy the selection and its sub-items (also to the system clipboard)"),
                    KeyBinding("P", .pasteAbove, "Paste above the selection")
                ]),
            Section(
                "Folds",
                [
                    KeyBinding("zo +", .openFold, "Open: show the item's sub-items beneath it"),
                    KeyBinding("zc -", .closeFold, "Close (on a sub-item: close the list it is in)"),
                    KeyBinding("za", .toggleFold, "Open or close"),
                    KeyBinding("zR", .openAllFolds, "Open everything in the level, at every depth"),
                    KeyBinding("zM", .closeAllFolds, "Close everything in the level"),
                    KeyBinding("H", .hideDone, "Hide or show done items in every level")
                ]),
            Section(
                "Search",
                [
                    KeyBinding("/", .search, "Search titles and notes as you type (↑/↓ choose, Enter goes there, Esc back)"),
                    KeyBinding("n", .nextMatch, "Next match"),
                    KeyBinding("N", .previousMatch, "Previous match")
                ]),
            Section(
                "Details",
                [
                    KeyBinding("I", .details, "Show or hide the details: note, times, what is below, path"),
                    KeyBinding("E", .editNote, "Edit the note in $VISUAL or $EDITOR"),
                    KeyBinding("]", .scrollDetailsDown, "Scroll the details down"),
                    KeyBinding("[", .scrollDetailsUp, "Scroll the details up"),
                    KeyBinding("A", .editNoteInPlace, "Edit the note here (Esc saves)")
                ]),
            Section(
                "History",
                [
                    KeyBinding("u <C-z>", .undo, "Undo"),
                    KeyBinding("<C-r> <C-y>", .redo, "Redo")
                ]),
            Section(
                "Other",
                [
                    KeyBinding("? <F1>", .help, "Show or hide this help"),
                    KeyBinding("q <C-c>", .quit, "Quit (everything is already saved)")
                ])
        ],
        help: Section(
            "In the help overlay",
            [
                KeyBinding("j <Down>", .moveDown, "Scroll down"),
                KeyBinding("k <Up>", .moveUp, "Scroll up"),
                KeyBinding("<PgDn> <Space>", .pageDown, "Scroll a page down"),
                KeyBinding("<PgUp>", .pageUp, "Scroll a page up")
            ]))
}
