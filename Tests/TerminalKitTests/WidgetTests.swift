import TerminalKit
import TestSupport
import Testing

struct TextFieldTests {
    /// Applies keys (in notation) to a field holding `start` with the cursor at `|`, and returns the text with
    /// the cursor marked the same way.
    private func edit(_ start: String, _ keys: String) throws -> String {
        let parts = start.split(separator: "|", omittingEmptySubsequences: false)
        var field = TextField(text: String(parts[0]) + String(parts[1]))
        for _ in 0..<parts[1].count { _ = field.handle(.left) }
        for key in try Key.parseSequence(keys) { _ = field.handle(key) }
        var chars = field.characters
        chars.insert("|", at: field.cursor)
        return String(chars)
    }

    @Test(arguments: [
        ("|", "abc", "abc|"), ("ac|", "<Left> b", "ab|c"), ("abc|", "<BS>", "ab|"), ("|abc", "<BS>", "|abc"),
        ("a|bc", "<Del>", "a|c"), ("ab|", "<Del>", "ab|"), ("abc|", "<Home> x", "x|abc"), ("|abc", "<End> x", "abcx|"),
        ("abc|", "<C-a> x", "x|abc"), ("ab|c", "<C-e>", "abc|"), ("one two|", "<C-w>", "one |"),
        ("one two  |", "<C-w>", "one |"), ("one two|", "<C-u>", "|"), ("one |two", "<C-u>", "|two"),
        ("on|e two", "<C-k>", "on|"), ("one two|", "<A-b>", "one |two"), ("|one two", "<A-f>", "one| two"),
        ("one two|", "<C-Left> <C-Left>", "|one two"), ("日本|", "<BS> 語", "日語|"), ("a|", "<Right> <Right>", "a|"),
        ("ab|", "<Left> <Left> <Left>", "|ab"), ("e\u{301}|", "<BS>", "|")
    ])
    func editingKeys(start: String, keys: String, expected: String) throws {
        #expect(try edit(start, keys) == expected)
    }

    @Test func reportsWhatAKeyDid() {
        var field = TextField(text: "ab")
        #expect(field.handle(.character("c")) == .edited)
        #expect(field.handle(.left) == .moved)
        #expect(field.handle(.enter) == .ignored)
        #expect(field.handle(.escape) == .ignored)
        #expect(field.handle(.ctrl("r")) == .ignored)
        field.insert("x\ny")
        #expect(field.text == "abx yc")
    }

    @Test func rendersWithPlaceholderCursorAndHorizontalScroll() {
        let backend = TestBackend(width: 10, height: 3)
        let terminal = Terminal(backend: backend)
        var empty = TextField()
        var long = TextField(text: "the quick brown fox")
        var wide = TextField(text: "日本語の文")
        terminal.draw { frame in
            _ = empty.render(into: &frame.buffer, area: frame.area.row(0), focused: false, placeholder: "Add to Groceries…")
            frame.cursor = long.render(into: &frame.buffer, area: frame.area.row(1), focused: true)
            _ = wide.render(into: &frame.buffer, area: frame.area.row(2), focused: true)
        }
        // The cursor sits after the text: the field scrolls so the end and one free cell are visible.
        expectScreen(
            backend,
            """
            Add to Gr…
            brown fox
             本語の文
            """)
        #expect(backend.cursor == Position(x: 9, y: 1))
        #expect(backend.cell(x: 0, y: 0).style.attributes == .dim)
        for _ in 0..<19 { _ = long.handle(.left) }
        for _ in 0..<4 { _ = wide.handle(.left) }
        terminal.draw { frame in
            frame.cursor = long.render(into: &frame.buffer, area: frame.area.row(1), focused: true)
            _ = wide.render(into: &frame.buffer, area: frame.area.row(2), focused: true)
        }
        expectScreen(
            backend,
            """

            the quick
             本語の文
            """)
        #expect(backend.cursor == Position(x: 0, y: 1))
    }
}

struct ListViewTests {
    private let fruits = ["apple", "banana", "cherry", "damson", "elderberry", "fig", "grape"]

    private func draw(_ backend: TestBackend, _ state: inout ListState, margin: Int = 0) {
        let rows = fruits
        Terminal(backend: backend).draw { frame in
            ListView(count: rows.count, margin: margin).render(into: &frame.buffer, area: frame.area, state: &state) { row, buffer in
                buffer.write((row.isSelected ? "> " : "  ") + rows[row.index], at: row.area.origin, maxWidth: row.area.width)
            }
        }
    }

    @Test func scrollsToKeepTheSelectionVisible() {
        let backend = TestBackend(width: 12, height: 3)
        var state = ListState()
        draw(backend, &state)
        expectScreen(
            backend,
            """
            > apple
              banana
              cherry
            """)
        #expect(backend.cell(x: 0, y: 0).style.attributes == .reverse)
        #expect(backend.cell(x: 11, y: 0).style.attributes == .reverse)
        #expect(backend.cell(x: 0, y: 1).style.attributes == [])
        state.move(by: 4, count: fruits.count)
        draw(backend, &state)
        expectScreen(
            backend,
            """
              cherry
              damson
            > elderberry
            """)
        state.move(by: 100, count: fruits.count)
        draw(backend, &state)
        expectScreen(
            backend,
            """
              elderberry
              fig
            > grape
            """)
        state.move(by: -3, count: fruits.count)
        draw(backend, &state, margin: 1)
        expectScreen(
            backend,
            """
              cherry
            > damson
              elderberry
            """)
    }

    @Test func clampsWhenTheListShrinksAndHandlesEmptyLists() {
        var state = ListState(selected: 9, offset: 8)
        state.select(9, count: 3)
        #expect(state.selected == 2)
        state.scrollToSelection(height: 5, count: 3)
        #expect(state.offset == 0)
        var empty = ListState()
        empty.move(by: 1, count: 0)
        #expect(empty.selected == nil)
        #expect(ListView.pageSize(height: 10) == 9)
    }
}

struct StatusBarTests {
    @Test func rightSideWinsWhenSpaceIsShort() {
        let backend = TestBackend(width: 20, height: 3)
        Terminal(backend: backend).draw { frame in
            StatusBar(left: "Deleted “Milk”", right: "12/340").render(into: &frame.buffer, area: frame.area.row(0))
            StatusBar(left: "Deleted “Groceries” and 12 sub-items", right: "?: help").render(into: &frame.buffer, area: frame.area.row(1))
            StatusBar(left: "x", right: "a very long hint text here").render(into: &frame.buffer, area: frame.area.row(2))
        }
        expectScreen(
            backend,
            """
            Deleted “Mil… 12/340
            Deleted “Gr… ?: help
            a very long hint te…
            """)
    }
}
