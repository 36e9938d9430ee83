import BurrowCommands
import Foundation

exit(BurrowMain.run(Array(CommandLine.arguments.dropFirst()), outliner: Outliner.run(databasePath:), exitsAfter: true))
