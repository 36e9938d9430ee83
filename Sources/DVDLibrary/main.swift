import Foundation
import ObjectGraph

// dvd-library: the example program of docs/OBJECTGRAPH.md, chapter 12 — the Core Data articles' people and
// their DVDs, and the Colors demo, on ObjectGraph. Each command opens the file (created when absent), does one
// unit of work and prints what it did.
let usage = """
    usage: dvd-library FILE COMMAND
      add-person USERNAME NAME        add-dvd USERNAME TITLE [YYYY-MM-DD]     list
      watched USERNAME                import USERNAME COUNT                   changes
      forget-watched USERNAME
      add-color NAME RED GREEN BLUE   colors                                  undo
      color NAME                      set-color NAME red|green|blue VALUE
    """

func run(_ arguments: [String]) throws -> [String] {
    guard arguments.count >= 2 else { throw Library.Failure(description: usage) }
    let library = try Library(path: arguments[0])
    let rest = Array(arguments.dropFirst(2))
    func number(_ s: String) throws -> Double {
        guard let d = Double(s) else { throw Library.Failure(description: "“\(s)” is not a number") }
        return d
    }
    switch (arguments[1], rest.count) {
    case ("add-person", 2): return try library.addPerson(username: rest[0], name: rest[1])
    case ("add-dvd", 2), ("add-dvd", 3):
        var bought: Date?
        if rest.count == 3 {
            let day = DateFormatter()
            day.dateFormat = "yyyy-MM-dd"
            day.timeZone = TimeZone(identifier: "UTC")
            guard let date = day.date(from: rest[2]) else { throw Library.Failure(description: "“\(rest[2])” is not a date (YYYY-MM-DD)") }
            bought = date
        }
        return try library.addDVD(owner: rest[0], title: rest[1], bought: bought)
    case ("list", 0): return try library.list()
    case ("watched", 1): return try library.markAllWatched(rest[0])
    case ("import", 2):
        guard let count = Int(rest[1]), count > 0 else { throw Library.Failure(description: "“\(rest[1])” is not a positive count") }
        return try library.importDVDs(owner: rest[0], count: count)
    case ("changes", 0): return try library.changes()
    case ("forget-watched", 1): return try library.forgetWatched(rest[0])
    case ("add-color", 4):
        return try library.addColor(name: rest[0], red: try number(rest[1]), green: try number(rest[2]), blue: try number(rest[3]))
    case ("colors", 0): return try library.colors()
    case ("color", 1): return try library.detail(of: rest[0])
    case ("set-color", 3): return try library.setComponent(of: rest[0], rest[1], to: try number(rest[2]))
    case ("undo", 0): return try library.undo()
    default: throw Library.Failure(description: usage)
    }
}

do {
    for line in try run(Array(CommandLine.arguments.dropFirst())) { print(line) }
} catch let error as any UserFacingError {
    FileHandle.standardError.write(Data("dvd-library: \(error.userMessage)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("dvd-library: \(error)\n".utf8))
    exit(1)
}
