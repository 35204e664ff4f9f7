import ArgumentParser
import Dispatch
import Foundation
import LinuxHardware
import Logging
import MotionConfig
import MotionCore
import MotionWeb

/// `motionlog daemon`: the headless logger for a bike. Waits; the button (or `motionlog
/// start`) starts a recording, the next press (or `motionlog stop`) stops it; a long press
/// stops and runs the shutdown command; SIGTERM stops cleanly and exits.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run headless: a button or `motionlog start|stop` controls recordings; an LED shows the state.",
        discussion: """
            Takes the recording options of `record`. Buttons and LED come from the board file's gpio \
            section; control also works through the socket (`motionlog start`, `stop`, `status`, `label`). \
            At start, unfinished recordings in the output folder are recovered. A recording stops by \
            itself before the card is full (min_free_space, default 100M). SIGTERM stops cleanly and \
            exits 0. See docs/DAEMON.md.
            """)

    @OptionGroup var options: RecordingOptions

    @Option(name: .long, help: "Stop each recording after this long: seconds, or with s/m/h (default: when stopped).")
    var duration: String?

    @Option(name: .long, help: "Control socket path (default: config daemon.socket, else \(ControlClient.defaultSocket)).")
    var socket: String?

    @Option(name: .customLong("socket-group"), help: "Group allowed to use the control socket (mode 0660).")
    var socketGroup: String?

    @Option(name: .customLong("long-press"), help: "Hold the button this long to stop and shut down (default 3s).")
    var longPress: String?

    @Option(name: .customLong("shutdown-command"), help: "Command run after a long press (default none), e.g. \"systemctl poweroff\".")
    var shutdownCommand: String?

    @Option(name: .customLong("min-free-space"), help: "Stop recording while this much space is still free (default 100M; 0 disables).")
    var minFreeSpace: String?

    /// Accepted for old command lines; the daemon never draws a status line.
    @Flag(name: .long, help: .hidden)
    var quiet = false

    @Option(name: .long, help: "Serve the web page on HOST:PORT (default: the config's web.listen; none when unset). See docs/WEB.md.")
    var web: String?

    @OptionGroup var webConnections: WebConnectionOptions

    @Flag(name: .customLong("no-gpio"), help: "Ignore the board's buttons and LED (socket control only).")
    var noGPIO = false

    func run() throws {
        let log = Logging.motionlogLogger()
        var setup = try RecordingSetup.resolve(options, run: .init(duration: duration))
        // Clients (`status`, `stop`) run from other folders: a relative output folder in
        // their replies ("last drec/…csv") named nothing from there.
        if !setup.outputPath.hasPrefix("/") {
            setup.outputPath = ((FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(setup.outputPath) as NSString).standardizingPath
        }
        let config = try DaemonConfiguration.resolve(
            socket: socket, socketGroup: socketGroup, longPress: longPress, shutdownCommand: shutdownCommand,
            minFreeSpace: minFreeSpace, noGPIO: noGPIO, settings: setup.settings, board: setup.board)
        // The signals are blocked since main started; from here they stop the daemon cleanly.
        let exitRequested = WakeSignal()
        SignalWatcher.onStop { _ in exitRequested.signal() }

        do { _ = try DiskDirectory(path: setup.outputPath) } catch { throw CommandFailure("\(error)", code: 2) }
        StartupRecovery.run(folder: setup.outputPath, log: log)

        var gpio: GPIOLines?
        // Said in `status` too: with --no-gpio it said "gpio": "ok".
        var gpioProblem: String? = noGPIO ? "not used (--no-gpio)" : config.wiring == nil ? "no buttons or LED in the board file" : nil
        if let wiring = config.wiring {
            do { gpio = try LinuxGPIOLines(wiring: wiring) } catch {
                gpioProblem = "\(error)"
                log.error("GPIO: \(error); the daemon runs without buttons and LED (use `motionlog start|stop`)")
            }
        }

        let freeSpace = RecordGuards.freeSpaceGuard(setup, minimumFreeBytes: config.minFreeSpaceBytes,
                                                    howToLower: RecordGuards.daemonHowToLower)
        let launcher = SetupLauncher(setup: setup, freeSpace: freeSpace, log: log)
        var settings = Daemon.Settings()
        settings.core.longPressNanos = Int64(config.longPressSeconds * 1e9)
        settings.core.shutdownCommand = config.shutdownCommand
        settings.core.baseLabel = setup.configuration.label
        settings.ledShowsGPS = config.ledShowsGPS
        settings.offloadStatusFile = OffloadWatch.statusFile(socket: config.socket)
        let daemon = Daemon(launcher: launcher, settings: settings, shutdown: ShellShutdownRunner(), log: log)
        daemon.noteGPIOProblem(gpioProblem)

        let server: ControlServer
        do {
            server = try ControlServer(path: config.socket, group: config.socketGroup, log: log) { request in
                daemon.answer(request)
            }
        } catch {
            gpio?.close()
            throw CommandFailure(error.description, code: 2)
        }
        server.start()
        let webServer: RunningWebServer?
        do { webServer = try DaemonWeb.start(option: web, connections: webConnections, settings: setup.settings, folder: setup.outputPath, daemon: daemon, log: log) } catch {
            server.close(); gpio?.close()
            throw error
        }
        let loop = DaemonLoop(daemon: daemon, gpio: gpio, log: log)
        loop.start()
        // Said once the socket is ours (a second daemon said it, then was refused).
        if config.wiring == nil && !noGPIO {
            log.notice("board \(setup.board.name) has no buttons or LED in its gpio section: control with `motionlog start|stop`")
        }
        let hint = gpio != nil ? "; press the button to start" : "; run `motionlog start` to record"
        log.notice("ready: board \(setup.board.name), \(setup.configuration.rateHz) Hz into \(setup.outputPath); control socket \(config.socket)\(hint)")

        exitRequested.wait()
        log.notice("signal received: stopping")
        daemon.stopForExit()
        webServer?.stop()
        server.close()
        loop.stop()
        gpio?.close()
    }
}
