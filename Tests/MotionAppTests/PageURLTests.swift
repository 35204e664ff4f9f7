@testable import MotionApp
import MotionCore
import MotionSystem
import Testing

/// The address `serve` prints and the daemon logs: one a phone on the same network can open.
/// `serve --listen 0.0.0.0:8080` said "http://THIS-MACHINE:8080/", the daemon
/// "http://0.0.0.0:8080/".
@Suite("Where the page is")
struct PageURLTests {
    @Test func aWildcardAddressIsShownAsTheMachinesNameAndAddresses() {
        let any = ListenAddress(host: "0.0.0.0", port: 8080)
        #expect(WebSetup.pageURL(any, port: 8080, hostName: "bikepi.lan", addresses: ["192.168.1.23", "10.0.0.5"])
                == "http://bikepi.local:8080/ (or http://192.168.1.23:8080/, http://10.0.0.5:8080/)")
        #expect(WebSetup.pageURL(ListenAddress(host: "::", port: 80), port: 80, hostName: "bikepi", addresses: [])
                == "http://bikepi.local:80/")
        #expect(WebSetup.pageURL(any, port: 8080, hostName: nil, addresses: []).hasPrefix("http://THIS-MACHINE:8080/"))
    }

    @Test func aGivenAddressIsShownAsItIsWithThePortBound() {
        #expect(WebSetup.pageURL(ListenAddress(host: "127.0.0.1", port: 0), port: 41234, hostName: "x", addresses: ["1.2.3.4"])
                == "http://127.0.0.1:41234/")
        #expect(WebSetup.pageURL(ListenAddress(host: "::1", port: 8080), port: 8080) == "http://[::1]:8080/")
    }

    @Test func thisMachinesAddressesAreReadWithoutLoopback() {
        #expect(!NetworkAddresses.ipv4().contains("127.0.0.1"))
    }
}
