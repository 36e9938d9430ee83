/// A format's writer, fed an outline one item at a time in outline order (each item before its sub-items),
/// appending the file's bytes as it goes: an export streams through one without holding the outline, and
/// its state grows with the depth, never with the number of items.
///
/// The calls are `begin`, then for each item `enter` (with `hasChildren` true, its sub-items follow and then
/// `leave` at its depth), then `end`. Between two calls the bytes appended are whole UTF-8 text, so they may
/// be handed on (to a file, to a terminal that sanitises them) at any call.
protocol OutlineWriter {
    /// The start of the file, before the first item.
    mutating func begin(into out: inout [UInt8])
    /// One item at `depth` (0 for the top level); its sub-items follow when `hasChildren`.
    mutating func enter(_ node: OutlineNode, depth: Int, hasChildren: Bool, into out: inout [UInt8])
    /// After the sub-items of the item at `depth` entered last with sub-items.
    mutating func leave(depth: Int, into out: inout [UInt8])
    /// The end of the file, after the last item.
    mutating func end(into out: inout [UInt8])
}

extension OutlineWriter {
    /// The whole file for `nodes`: the tree walked with a stack of our own, so no depth exhausts a thread's.
    mutating func write(_ nodes: [OutlineNode]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64 * 1024)
        begin(into: &out)
        // Each entry enters a node, or (with nil) leaves the node at its depth.
        var stack: [(node: OutlineNode?, depth: Int)] = nodes.reversed().map { ($0, 0) }
        while let (node, depth) = stack.popLast() {
            guard let node else {
                leave(depth: depth, into: &out)
                continue
            }
            let children = node.children
            enter(node, depth: depth, hasChildren: !children.isEmpty, into: &out)
            if !children.isEmpty {
                stack.append((nil, depth))
                stack += children.reversed().map { ($0, depth + 1) }
            }
        }
        end(into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension [UInt8] {
    /// Appends a literal's UTF-8 bytes without making a String.
    mutating func append(literal s: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
}
