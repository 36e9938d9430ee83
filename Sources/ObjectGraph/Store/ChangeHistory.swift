import Foundation

/// The commits made to a store after a ``ChangeToken``, by every context and process, oldest first:
/// what a replica, an indexer or a sync reads to follow the store (Core Data's persistent history).
///
/// ```swift
/// let history = try store.changeHistory(after: token, entities: ["Item"])
/// if !history.isComplete { reindexEverything() }
/// for commit in history.commits where commit.author != "indexer" { index(commit.changes) }
/// token = history.token
/// ```
public struct ChangeHistory: Sendable {
    /// One commit: its token, who made it (``Context/transactionAuthor``, nil when unnamed), when, and what
    /// it changed (only the entities asked for).
    ///
    /// ```swift
    /// for commit in history.commits { print(commit.token.value, commit.author ?? "?", commit.date ?? .distantPast) }
    /// ```
    public struct Commit: Sendable {
        /// The commit's place in the log: the token to ask from to read what came after it.
        public let token: ChangeToken
        /// The saving context's ``Context/transactionAuthor`` (nil when it named none).
        public let author: String?
        /// When it was committed, by the committing process's clock (Core Data's transaction `timestamp`);
        /// nil from a store type that keeps no time (the in-memory store of tests).
        public let date: Date?
        /// What the commit inserted, updated and deleted, per entity.
        public let changes: ChangeSet
    }

    /// The commits, oldest first.
    public let commits: [Commit]
    /// The token to ask from next time: the newest commit the store had made when this was read.
    public let token: ChangeToken
    /// False when commits after the token asked from are gone from the log (it keeps
    /// ``Store/changeHistoryRetention`` seconds) or cannot be read: what changed meanwhile is not all
    /// here, and a reader must read what it follows again in full.
    public let isComplete: Bool
}
