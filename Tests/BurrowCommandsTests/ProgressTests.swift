import Foundation
import Testing

@testable import BurrowCommands

/// The progress bar: nothing for quick work or when stderr is no terminal, a bar once the work has run half
/// a second, redrawn at most every tenth of a second, erased at the end. The clock is the test's own.
@Suite struct ProgressTests {
    /// A console whose stderr is kept and whose clock is set by hand. `@unchecked Sendable` because Swift
    /// cannot see that every stored property is read and written only under `lock` (the console's closures
    /// may be called from the work's thread); a property added outside the lock would break that.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        private var seconds = 100.0

        var err: String { lock.withLock { text } }
        var time: Double {
            get { lock.withLock { seconds } }
            set { lock.withLock { seconds = newValue } }
        }

        func console(errIsTerminal: Bool) -> Console {
            Console(
                out: { _ in }, err: { s in self.lock.withLock { self.text += s } }, input: { Data() }, errIsTerminal: errIsTerminal,
                environment: [:], now: { self.time })
        }
    }

    @Test func quickWorkDrawsNothing() {
        let r = Recorder()
        Console.$current.withValue(r.console(errIsTerminal: true)) {
            var p = Progress("exporting", total: 10)
            for k in 1...10 {
                r.time += 0.049
                p.update(k)
            }
            p.finish()
        }
        #expect(r.err == "")
    }

    @Test func aBarAfterHalfASecondRedrawnAtMostEveryTenthAndErased() {
        let r = Recorder()
        Console.$current.withValue(r.console(errIsTerminal: true)) {
            var p = Progress("exporting", total: 10)
            // Sums of binary fractions, so the clock's readings are exact.
            r.time += 0.375
            p.update(1)
            #expect(r.err == "")
            r.time += 0.125
            p.update(2)
            #expect(r.err == "\rexporting [######                        ] 2/10")
            r.time += 0.0625
            p.update(3)
            #expect(r.err == "\rexporting [######                        ] 2/10")
            r.time += 0.0625
            p.update(10)
            #expect(r.err.hasSuffix("\rexporting [##############################] 10/10"))
            p.finish()
            #expect(r.err.hasSuffix("10/10\r\u{1B}[K"))
        }
    }

    @Test func nothingWhenStderrIsNoTerminal() {
        let r = Recorder()
        Console.$current.withValue(r.console(errIsTerminal: false)) {
            var p = Progress("importing", total: nil)
            for k in 1...100 {
                r.time += 0.2
                p.update(k)
            }
            p.finish()
        }
        #expect(r.err == "")
    }

    /// Without a total the count alone; a count past the total (items added meanwhile) fills the bar, no more.
    @Test func withoutATotalAndPastIt() {
        let r = Recorder()
        Console.$current.withValue(r.console(errIsTerminal: true)) {
            var p = Progress("importing", total: nil)
            r.time += 1
            p.update(4096)
            var q = Progress("exporting", total: 2)
            r.time += 1
            q.update(5)
        }
        #expect(r.err == "\rimporting 4096\rexporting [##############################] 5/2")
    }

    /// `burrow export -o FILE` with stderr a terminal: on a clock that jumps a second at each reading, the
    /// bar, erased, then the summary; on a clock that stands still, the summary alone. To a terminal's
    /// stdout, no bar (it would be mixed into the text).
    @Test(arguments: [false, true])
    func exportShowsTheBarOnlyWhenSlow(slow: Bool) throws {
        let sh = Shell()
        sh.run("add", "a", "b", "c")
        sh.errIsTerminal = true
        let r = Recorder()
        sh.now = {
            if slow { r.time += 1 }
            return r.time
        }
        let file = sh.file("out.opml")
        let (code, _, err) = sh.run("export", "-o", file)
        #expect(code == 0)
        let summary = "Exported 3 items to \(file) (opml)\n"
        #expect(err == (slow ? "\rexporting [##############################] 3/3\r\u{1B}[K" + summary : summary))
        sh.outIsTerminal = true
        #expect(sh.run("export").2 == "")
    }
}
