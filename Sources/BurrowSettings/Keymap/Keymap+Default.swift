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
                    KeyBinding("~", .backToTop, "Back to the top level"),
                    KeyBinding("=", .agenda, "Agenda: tasks overdue, planned or due today and the next 7 days (:agenda N for N days)"),
                    KeyBinding("#", .tagView, "The items of the selected item's tag, from everywhere (:tag NAME for any tag)")
                ]),
            Section(
                "Editing",
                [
                    KeyBinding("a", .capture, "Quick capture: add items at the end (Enter adds, Esc adds and leaves)"),
                    KeyBinding("o", .insertBelow, "Insert an item below"),
                    KeyBinding("O", .insertAbove, "Insert an item above"),
                    KeyBinding("e i <F2>", .rename, "Rename (Enter or Esc keeps, Ctrl-G keeps the old title)"),
                    KeyBinding("dd x <Del>", .delete, "Delete the item and its sub-items"),
                    KeyBinding("<Space>", .toggleDone, "Toggle done (a task goes to its first done or not-done state)"),
                    KeyBinding("t", .cycleState, "Task state: none, TODO, … DONE, none (the outline's #+TODO line names its own)"),
                    KeyBinding(",", .cyclePriority, "Priority: none, A, B, C"),
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
                    KeyBinding("}", .pageDetailsDown, "Scroll the details down a page"),
                    KeyBinding("{", .pageDetailsUp, "Scroll the details up a page"),
                    KeyBinding("A", .editNoteInPlace, "Edit the note here (Esc saves)")
                ]),
            Section(
                "History",
                [
                    KeyBinding("u", .undo, "Undo"),
                    KeyBinding("<C-r> <C-y>", .redo, "Redo")
                ]),
            Section(
                "Other",
                [
                    KeyBinding("? <F1>", .help, "Show or hide this help"),
                    KeyBinding("q <C-c>", .quit, "Quit (everything is already saved)"),
                    KeyBinding(":", .commandLine, "A vim command line: :q, :wq, :x quit (:w has nothing to write)"),
                    KeyBinding("<C-z>", .suspend, "Suspend to the shell, as in every terminal program (fg comes back)"),
                    KeyBinding("<C-l>", .redraw, "Redraw the screen")
                ]),
            Section(
                "In quick capture, rename and insert",
                .editor,
                [
                    KeyBinding("<Enter>", .confirm, "Add the item (capture stays open for the next), keep the new title, insert"),
                    KeyBinding("<Esc>", .finish, "Keep what you typed (add, rename, insert) and leave, as Esc does in vim"),
                    KeyBinding("<C-g>", .cancel, "Leave without what you typed (the status line says what was dropped)"),
                    KeyBinding("<Up>", .moveUp, "In quick capture: select the item above"),
                    KeyBinding("<Down>", .moveDown, "In quick capture: select the item below")
                ]),
            Section(
                "In the search line (/)",
                .search,
                [
                    KeyBinding("<Enter>", .confirm, "Go to the chosen hit, in its level"),
                    KeyBinding("<Esc> <C-g>", .cancel, "Leave the search, back where you were"),
                    KeyBinding("<Down> <C-n>", .moveDown, "Choose the next hit"),
                    KeyBinding("<Up> <C-p>", .moveUp, "Choose the hit above"),
                    KeyBinding("<PgDn>", .pageDown, "A page of hits down"),
                    KeyBinding("<PgUp>", .pageUp, "A page of hits up")
                ]),
            Section(
                "In the move picker (M)",
                .picker,
                [
                    KeyBinding("<Enter>", .confirm, "Move the selection to the end of the chosen item's sub-items"),
                    KeyBinding("<Esc> <C-g>", .cancel, "Leave without moving"),
                    KeyBinding("<Down> <C-n>", .moveDown, "Choose the next item"),
                    KeyBinding("<Up> <C-p>", .moveUp, "Choose the item above"),
                    KeyBinding("<PgDn>", .pageDown, "A page down"),
                    KeyBinding("<PgUp>", .pageUp, "A page up")
                ]),
            Section(
                "In the note editor (A)",
                .note,
                [
                    KeyBinding("<Esc>", .saveNote, "Save the note (one undoable action) and leave"),
                    KeyBinding("<C-g>", .discardNote, "Leave the note as it was"),
                    KeyBinding("<Enter>", .newLine, "A new line"),
                    KeyBinding("<Up> <C-p>", .moveUp, "Up a row on screen"),
                    KeyBinding("<Down> <C-n>", .moveDown, "Down a row on screen"),
                    KeyBinding("<PgUp>", .pageUp, "Up a screenful"),
                    KeyBinding("<PgDn>", .pageDown, "Down a screenful"),
                    KeyBinding("<C-Home>", .noteStart, "To the start of the note"),
                    KeyBinding("<C-End>", .noteEnd, "To the end of the note")
                ]),
            Section(
                "Editing text (in every editor)",
                .text,
                [
                    KeyBinding("<Left> <C-b>", .cursorLeft, "A character left"),
                    KeyBinding("<Right> <C-f>", .cursorRight, "A character right"),
                    KeyBinding("<C-Left> <A-b>", .wordLeft, "A word left"),
                    KeyBinding("<C-Right> <A-f>", .wordRight, "A word right"),
                    KeyBinding("<Home>", .rowStart, "To the start of the row"),
                    KeyBinding("<End>", .rowEnd, "To the end of the row"),
                    KeyBinding("<C-a>", .lineStart, "To the start of the line"),
                    KeyBinding("<C-e>", .lineEnd, "To the end of the line"),
                    KeyBinding("<BS> <C-h>", .deleteBackward, "Delete the character before the cursor"),
                    KeyBinding("<Del> <C-d>", .deleteForward, "Delete the character under the cursor"),
                    KeyBinding("<C-w> <A-BS>", .deleteWordBackward, "Delete the word before the cursor"),
                    KeyBinding("<C-u>", .deleteToLineStart, "Delete to the start of the line"),
                    KeyBinding("<C-k>", .deleteToLineEnd, "Delete to the end of the line")
                ]),
            Section(
                "In a visual range (v)",
                .visual,
                [
                    KeyBinding("<Esc> v", .leaveRange, "Leave the range (the list's moving keys extend it; d Space J K > < M y m act on all of it)"),
                    KeyBinding("d x <Del>", .delete, "Delete the range's items and their sub-items")
                ]),
            Section(
                "In the help overlay",
                .help,
                [
                    KeyBinding("j <Down>", .moveDown, "Scroll down"),
                    KeyBinding("k <Up>", .moveUp, "Scroll up"),
                    KeyBinding("<PgDn> <Space>", .pageDown, "Scroll a page down"),
                    KeyBinding("<PgUp>", .pageUp, "Scroll a page up")
                ])
        ])
}
