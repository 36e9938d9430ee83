import Foundation
import Outline
import Testing

@testable import BurrowCommands

/// `burrow agenda`: what is overdue, then each day's planned and due tasks, done ones left out.
@Suite struct AgendaCommandTests {
    /// Days in 2030, so that none of them is the day the test runs ("(today)" marks that one).
    @Test func theWeekAhead() throws {
        let sh = Shell()
        #expect(sh.run("add", "Work").0 == 0)
        for line in [
            "TODO Call Bob !A due:2030-05-24", "Review sched:2030-06-02 9:00", "TODO Pay rent due:2030-06-04",
            "Trip sched:2030-06-03 due:2030-06-08", "DONE Filed sched:2030-06-02", "Later sched:2030-06-28"
        ] {
            #expect(sh.run("add", line, "--under", "Work").0 == 0)
        }
        let r = sh.run("agenda", "--from", "2030-06-02", "--days", "3")
        #expect(r.0 == 0, "\(r)")
        #expect(
            r.1 == """
                Overdue
                  TODO [#A] Call Bob · was due 2030-05-24 · Work
                Sun 2030-06-02
                  09:00 Review · Work
                Mon 2030-06-03
                  Trip · Work
                Tue 2030-06-04
                  TODO Pay rent · due · Work

                """, "\(r.1)")
        let json = sh.run("agenda", "--from", "2030-06-02", "--days", "1", "--json").1
        #expect(json.hasPrefix("{\"overdue\": [{\"id\": "), "\(json)")
        #expect(json.contains("\"day\": \"2030-06-02\", \"entries\": [{\"id\": "), "\(json)")
        #expect(sh.run("agenda", "--from", "someday").0 == 2)
    }
}
