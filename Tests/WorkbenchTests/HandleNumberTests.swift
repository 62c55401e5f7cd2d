import Testing

@testable import Workbench

/// `nextHandle` says which number it handed out (issue 30): a message's
/// record keeps that number, read from the counter, not from re-reading the
/// handle's text; a name the user chose has none.
@Suite struct HandleNumberTests {
    @Test func aNumberedHandleComesWithItsNumber() throws {
        let (session, _) = try run(["user set alice", "start conversation", "send c1 text hi", "watch items c1"])
        let handles = session.interpreter.handles
        let message = handles.nextHandle("m")
        #expect(message.name == "m2")
        #expect(message.number == 2)
        let watcher = handles.nextHandle("w")
        #expect(watcher.name == "w2")
        #expect(watcher.number == 2)
    }

    @Test func aBoundNameHasNoNumber() throws {
        let (session, _) = try run(["user set alice", "start conversation"])
        let handles = session.interpreter.handles
        handles.pendingBinding = (name: "m9", prefix: "m")
        let bound = handles.nextHandle("m")
        #expect(bound.name == "m9")
        #expect(bound.number == nil)
        #expect(handles.pendingBinding == nil)
        #expect(handles.nextHandle("m").number == 1)
    }

    @Test func aMessageBoundByNameKeepsItAndTheNextTakesTheCounter() throws {
        let (session, results) = try run(["user set alice", "start conversation", "hello = send c1 text hi", "send c1 text again"])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        let objects = session.interpreter.objects
        #expect(objects["hello"] is MessageObject)
        #expect((objects["m1"] as? MessageObject)?.handle == "m1")
        #expect(objects.values.compactMap { ($0 as? MessageObject)?.handle }.sorted() == ["hello", "m1"])
    }
}
