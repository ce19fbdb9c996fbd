import JSEngine
import Synchronization

/// One page the host is attached to. Holds its transport weakly: the host never keeps a
/// page alive, and a page that goes away detaches itself (``PageTransport/onClose(_:)``).
final class AttachedPage: Sendable {
    let pageID: String
    let app: MicroApp
    let shell: any Shell
    weak let transport: (any PageTransport)?
    /// The right items last configured by this page, for ``BridgeHost/tapRightItem(at:onPage:)``.
    let rightItems = Mutex<[ShellHeaderItem]>([])

    init(transport: any PageTransport, app: MicroApp, shell: any Shell) {
        self.pageID = transport.pageID
        self.app = app
        self.shell = shell
        self.transport = transport
    }
}
