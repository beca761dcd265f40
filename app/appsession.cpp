#include "appsession.h"

#include "consolerecording.h"

#include "connectiondialog.h"
#include "consoleactions.h"
#include "demo/democlients.h"
#include "demo/demofleet.h"
#include "guide/guidewindow.h"
#include "hostkeyprompt.h"
#include "local/localredisserver.h"
#include "lock/lockclient.h"
#include "mainwindow.h"
#include "monitor/lockmonitor.h"
#include "profiles/keychainstore.h"
#include "redis/redisrouter.h"

#include <QDir>

namespace LockScope {

AppSession::AppSession(MainWindow *window, QObject *parent)
    : QObject(parent)
    , m_window(window)
{
    connect(window, &MainWindow::connectRequested, this, &AppSession::openConnectionDialog);
    connect(window, &MainWindow::guidedDemoRequested, this, [this] { openGuide(); });
}

void AppSession::openGuide(const QString &scenario, std::function<void(QWidget *)> opened)
{
    if (!m_guide && m_server && !m_server->isReady()) {
        // Started with the app: the console's private server is on its way.
        connect(
            m_server, &LocalRedisServer::ready, this, [this, scenario, opened] { openGuide(scenario, opened); },
            Qt::SingleShotConnection);
        return;
    }
    if (!m_guide) {
        // The console's own private server is the demo's too: the guided locks appear in the lock table.
        std::optional<ConnectionOptions> server;
        if (m_server && m_server->isReady())
            server = ConnectionOptions::fromUrl(m_server->url());
        m_guideShared = server.has_value();
        auto *guide = new Guide::GuideWindow(server, m_window);
        guide->setAttribute(Qt::WA_DeleteOnClose);
        guide->setActorProgram(QCoreApplication::applicationFilePath(), { QStringLiteral("--guide-actor") });
        m_guide = guide;
    }
    if (!scenario.isEmpty())
        static_cast<Guide::GuideWindow *>(m_guide.data())->selectScenario(scenario);
    m_guide->show();
    m_guide->raise();
    m_guide->activateWindow();
    if (opened)
        opened(m_guide);
}

AppSession::~AppSession()
{
    delete m_guide.data(); // its player stops while the server it plays on still runs
    // Clients before the server they talk to, so none of them sees it die and starts reconnecting.
    delete std::exchange(m_demo, nullptr);
    delete std::exchange(m_fleet, nullptr);
    delete std::exchange(m_monitor, nullptr);
    delete std::exchange(m_console, nullptr);
    delete std::exchange(m_server, nullptr);
}

void AppSession::startDemo(const ConnectionOptions *target, bool readOnly)
{
    if (target) {
        ConnectionOptions options = *target;
        options.readOnly = readOnly;
        runDemo(options, tr("Demo clients on your server: they take, renew and release locks named demo:*."));
        return;
    }
    m_window->setConnection(
        tr("private redis-server"), tr("Starting a private redis-server on a free loopback port…"), readOnly);
    m_window->setConnectionState(MainWindow::ConnectionState::Starting);
    // Our own server: keyspace notifications on, so the demo's locks show up the moment they are taken.
    LocalRedisServer::Options serverOptions;
    serverOptions.extraArgs = { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") };
    m_server = new LocalRedisServer(serverOptions, this);
    connect(m_server, &LocalRedisServer::ready, this, [this, readOnly] { onServerReady(readOnly); });
    connect(m_server, &LocalRedisServer::failed, this, [this](const QString &error) {
        m_window->setConnection(tr("private redis-server"),
            tr("The private redis-server did not start. Is redis-server installed and on PATH?"), false);
        m_window->setConnectionState(MainWindow::ConnectionState::Failed, error);
    });
    connect(m_server, &LocalRedisServer::exitedUnexpectedly, this,
        [this](const QString &error) { m_window->setConnectionState(MainWindow::ConnectionState::Failed, error); });
    m_server->startAsync();
}

void AppSession::onServerReady(bool readOnly)
{
    ConnectionOptions options = ConnectionOptions::fromUrl(m_server->url());
    options.readOnly = readOnly;
    runDemo(options,
        tr("Private demo server (redis-server pid %1, data in %2): it and the simulated clients stop when this "
           "window closes.")
            .arg(m_server->pid())
            .arg(QDir::toNativeSeparators(m_server->dir())));
}

void AppSession::runDemo(ConnectionOptions options, const QString &description)
{
    // The fleet's Redisson semaphore has a name of no fixed shape: the demo declares it, as a user would. And the
    // simulated clients' locks are Redisson's by the demo's own word: not "may be application data" (issue 47).
    m_stringPatterns.declare("redisson", DemoFleet::kSemaphore);
    m_stringPatterns.declare("redisson", "demo:*");
    watch(options, description);
    // The console may be read-only; the simulated clients are other applications and write as they do.
    options.readOnly = false;
    DemoClients::Options demoOptions;
    demoOptions.clients = 12; // with the read-write pair and the fair queue
    m_demo = new DemoClients(options, demoOptions, this);
    connect(m_demo, &DemoClients::demoEvent, m_window, &MainWindow::addEvent);
    // Beside them, the other libraries of a mixed fleet: a ShedLock job, python-redis-lock workers, a semaphore.
    m_fleet = new DemoFleet(options, demoOptions.clients + 1, this);
    connect(m_fleet, &DemoFleet::demoEvent, m_window, &MainWindow::addEvent);
    m_window->setNote(
        tr("%1 simulated Redisson clients on %2 locks: watchdog holders, fixed leases, waiters, "
           "reentrant holds, readers and a writer on demo:report, a fair queue on demo:payroll, and one "
           "holder that crashes and lets its lease run out. Beside them a mixed fleet: a ShedLock job on "
           "%3 with its cool-down, two python-redis-lock workers on %4, and three workers sharing the two "
           "permits of the Redisson semaphore %5.")
            .arg(m_demo->options().clients)
            .arg(m_demo->options().locks)
            .arg(QLatin1String(DemoFleet::kJobLock), QLatin1String(DemoFleet::kStringLock),
                QLatin1String(DemoFleet::kSemaphore)));
    m_demo->start();
    m_fleet->start();
}

void AppSession::connectTo(const ConnectionOptions &options)
{
    watch(options, tr("Your Redis server."));
    m_window->setNote(connectionNote(options));
}

void AppSession::showUnusableUrl(const QString &reason)
{
    // Not the URL itself: it may hold a password.
    m_window->setConnection(tr("(the URL given)"), tr("Not connected."), false);
    m_window->setConnectionState(MainWindow::ConnectionState::Failed, tr("bad --url: %1").arg(reason));
    m_window->setNote(tr("Correct the URL and start again, or choose File › Connect…"));
}

QString AppSession::connectionNote(const ConnectionOptions &options) const
{
    // What is true of this window: which names it shows, and whether its actions write. How live the table is
    // depends on the server (keyspace events or re-scans), and the locks table's own label says which.
    const QString shown = m_pattern == "*"
        ? tr("The table shows every lock on this server.")
        : tr("The table shows the locks on this server whose names match %1.").arg(QString::fromUtf8(m_pattern));
    return shown + QLatin1Char(' ')
        + (options.readOnly ? tr("Read-only: this console writes nothing to it.")
                            : tr("The Lock menu's actions write to it, and each is recorded in the audit log."));
}

void AppSession::openConnectionDialog()
{
    if (!m_secrets)
        m_secrets.reset(KeychainSecretStore::create());
    auto *dialog = new ConnectionDialog(m_secrets.get(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConnectionProfile profile = dialog->profile();
        const ConnectionOptions options = dialog->options();
        ConnectionProfile::addRecent(options.toDisplayUrl());
        teardown();
        m_pattern = profile.pattern.toUtf8();
        m_stringPatterns = profile.stringLockPatterns();
        m_window->setColourTag(QColor(profile.colour)); // empty: an invalid colour, no tag
        m_production = profile.production;
        m_notify = profile.notify;
        m_window->setProduction(m_production);
        watch(options, profile.name.isEmpty() ? tr("Your Redis server.") : profile.name);
        m_window->setNote(connectionNote(options));
    });
    dialog->open();
}

void AppSession::teardown()
{
    m_window->clearLockMonitor();
    delete std::exchange(m_demo, nullptr);
    delete std::exchange(m_fleet, nullptr);
    delete std::exchange(m_monitor, nullptr);
    delete std::exchange(m_console, nullptr);
    if (m_guideShared)
        delete m_guide.data(); // it plays on the server that goes now
    delete std::exchange(m_server, nullptr);
    delete m_hostKeyPrompt;
    m_window->setNote({});
}

void AppSession::watch(const ConnectionOptions &options, const QString &description)
{
    if (!options.ssh.isSet()) {
        watchNow(options, description, {});
        return;
    }
    m_window->setConnection(options.toDisplayUrl(), description, options.readOnly);
    m_window->setRoute(options.routeDescription(), true);
    m_window->setConnectionState(MainWindow::ConnectionState::Starting);
    delete m_hostKeyPrompt;
    auto *prompt = new HostKeyPrompt(options, m_window, this);
    m_hostKeyPrompt = prompt;
    connect(prompt, &HostKeyPrompt::proceed, this,
        [this, prompt, description](const ConnectionOptions &accepted, const QString &hostKey) {
            prompt->deleteLater();
            watchNow(accepted, description, hostKey);
        });
    connect(prompt, &HostKeyPrompt::refused, this, [this, prompt](const QString &reason) {
        prompt->deleteLater();
        m_window->setConnectionState(MainWindow::ConnectionState::Failed, reason);
    });
    prompt->start();
}

void AppSession::watchNow(const ConnectionOptions &options, const QString &description, const QString &hostKey)
{
    m_window->setConnection(options.toDisplayUrl(), description, options.readOnly);
    m_window->setRoute(options.routeDescription(), options.ssh.isSet(),
        hostKey.isEmpty() ? QString() : tr("SSH host key: %1").arg(hostKey));
    m_window->setConnectionState(MainWindow::ConnectionState::Starting);
    LockClientOptions consoleOptions;
    consoleOptions.stringPatterns = m_stringPatterns; // a string lock's release wakes its library's waiters
    m_console = new LockClient(options, consoleOptions, this);
    // The monitor reads only, on its own connections, whatever the console is allowed to do.
    LockMonitor::Options monitorOptions;
    monitorOptions.pattern = m_pattern;
    monitorOptions.stringPatterns = m_stringPatterns;
    m_monitor = new LockMonitor(options, monitorOptions, this);
    m_window->setLockMonitor(m_monitor, m_console->clientId());
    auto *actions = new ConsoleActions(m_console, m_monitor, m_window, options.auditTarget(), options.readOnly);
    actions->setProduction(m_production);
    actions->setNotify(m_notify);
    m_window->setConsole(actions);
    m_window->setRecording(
        new ConsoleRecording(m_monitor, options.auditTarget().toUtf8(), ConsoleRecording::defaultPath(), m_window));
    m_monitor->start();
    RedisCommander *connection = m_console->connection();
    m_window->setRetrySource([connection] { return connection->retryDelayMs(); });
    connect(connection, &RedisCommander::ready, this,
        [this] { m_window->setConnectionState(MainWindow::ConnectionState::Connected); });
    connect(connection, &RedisCommander::disconnected, this, [this, connection](const RedisError &error) {
        // The message a person reads ("127.0.0.1:6380: Connection refused"), not the log form with its kind first.
        m_window->setConnectionState(
            MainWindow::ConnectionState::Disconnected, error.message(), connection->retryDelayMs());
    });
}

} // namespace LockScope
