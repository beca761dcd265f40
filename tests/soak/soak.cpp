// The soak run: the demo clients and a monitor (with its table and timeline models) on a private redis-server for a
// bounded time. Passes when every hold the clients started and ended was reported by the monitor, the file
// descriptors after warm-up are the ones at the end, and the resident set did not grow past the allowance, over the
// second half of the run. Prints its figures and, last, one JSON line.
#include "demo/democlients.h"
#include "local/localredisserver.h"
#include "models/locktablemodel.h"
#include "models/locktimelinemodel.h"
#include "monitor/lockmonitor.h"
#include "soaktally.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

#include <cstdio>
#include <memory>

using namespace LockScope;
using namespace LockScope::Soak;

namespace {
// Growth after warm-up that still counts as flat: allocator caches and Qt's lazily built tables settle slowly.
constexpr qint64 kRssAllowanceKiB = 8 * 1024;

void say(const QString &text)
{
    std::fprintf(stderr, "%s\n", qPrintable(text));
}
} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOptions(
        { { QStringLiteral("seconds"), QStringLiteral("how long the clients run (default 60, at least 10)"),
              QStringLiteral("S"), QStringLiteral("60") },
            { QStringLiteral("clients"), QStringLiteral("simulated clients (default 12)"), QStringLiteral("N"),
                QStringLiteral("12") },
            { QStringLiteral("locks"), QStringLiteral("locks they share (default 6)"), QStringLiteral("N"),
                QStringLiteral("6") } });
    parser.process(app);
    const int seconds = qMax(10, parser.value(QStringLiteral("seconds")).toInt());
    // Clients open their pub/sub connection the first time they wait, which may take a while: the first half of
    // the run is the warm-up, and the second half must add nothing.
    const qint64 warmUpMs = seconds * 500;

    LocalRedisServerOptions serverOptions;
    serverOptions.extraArgs = { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") };
    LocalRedisServer server(serverOptions);
    QString error;
    if (!server.start(&error)) {
        say(QStringLiteral("soak: redis-server: %1").arg(error));
        return 2;
    }
    const ConnectionOptions connection = ConnectionOptions::fromUrl(server.url());
    LockMonitor::Options monitorOptions;
    monitorOptions.pattern = "demo:*";
    monitorOptions.ttlPollIntervalMs = 500;
    LockMonitor monitor(connection, monitorOptions);
    LockTableModel table(&monitor);
    LockTimelineModel timeline(&monitor);
    DemoClients::Options demoOptions;
    demoOptions.clients = parser.value(QStringLiteral("clients")).toInt();
    demoOptions.locks = parser.value(QStringLiteral("locks")).toInt();
    auto demoOwner = std::make_unique<DemoClients>(connection, demoOptions);
    DemoClients &demo = *demoOwner;

    Tally generated, seen;
    // Both sides of each lock/owner pair's story: printed for a mismatch, and live on stderr for one lock name.
    Story story;
    QElapsedTimer storyClock;
    storyClock.start();
    const QByteArray trace = qgetenv("LOCKSCOPE_SOAK_TRACE");
    const auto tell = [&](const QByteArray &name, const QByteArray &owner, const QString &what) {
        const QString line = QStringLiteral("%1 ms %2").arg(storyClock.elapsed()).arg(what);
        story.add(name + ' ' + owner, line);
        if (name == trace)
            say(QStringLiteral("trace: %1 %2").arg(QString::fromUtf8(owner), line));
    };
    int failures = 0, monitorErrors = 0;
    QObject::connect(&demo, &DemoClients::demoEvent, &app, [&](const DemoEvent &e) {
        generated.addGenerated(e);
        tell(e.name, e.owner, QStringLiteral("demo %1 count %2").arg(DemoEvent::kindName(e.kind)).arg(e.count));
        failures += e.kind == DemoEvent::Kind::Failed ? 1 : 0;
    });
    QObject::connect(&monitor, &LockMonitor::eventsOccurred, &app, [&](const QList<LockEvent> &events) {
        for (const LockEvent &e : events) {
            seen.addSeen(e);
            tell(e.name, e.owner,
                QStringLiteral("monitor %1 count %2").arg(QString::fromUtf8(LockEvent::typeName(e.type))).arg(e.count));
        }
    });
    QObject::connect(&monitor, &LockMonitor::errorOccurred, &app, [&](const RedisError &e) {
        ++monitorErrors;
        say(QStringLiteral("soak: monitor error: %1").arg(e.toString()));
    });

    QElapsedTimer clock;
    qint64 rssAfterWarmUp = -1, rssMax = 0;
    int fdsAfterWarmUp = -1, fdsBeforeDemo = -1, fdsMax = 0;
    QJsonArray samples;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &app, [&] {
        const qint64 rss = residentKiB();
        const int fds = openFds();
        rssMax = qMax(rssMax, rss);
        fdsMax = qMax(fdsMax, fds);
        if (rssAfterWarmUp < 0 && clock.elapsed() >= warmUpMs) {
            rssAfterWarmUp = rss;
            fdsAfterWarmUp = fds;
        }
        samples.append(QJsonArray { clock.elapsed() / 1000, rss, fds });
    });

    QTimer settle;
    QElapsedTimer settling;
    QObject::connect(&monitor, &LockMonitor::snapshotFinished, &app, [&](const RedisError &e) {
        if (e.isError()) {
            say(QStringLiteral("soak: first snapshot failed: %1").arg(e.toString()));
            app.exit(2);
            return;
        }
        clock.start();
        sampler.start(1000);
        fdsBeforeDemo = openFds();
        demo.start();
        QTimer::singleShot(seconds * 1000, &demo, &DemoClients::stop);
    });
    QObject::connect(&demo, &DemoClients::stopped, &app, [&] {
        // Released holds and the crashed one's lease (the watchdog timeout) still have to reach the monitor.
        settling.start();
        settle.start(100);
    });
    QObject::connect(&settle, &QTimer::timeout, &app, [&] {
        Tally sofar = generated;
        sofar.closeOpenHolds();
        if ((differences(sofar, seen).isEmpty() && monitor.lockCount() == 0) || settling.elapsed() > 15000)
            app.exit(0);
    });
    monitor.start();
    if (app.exec() != 0)
        return 2;
    sampler.stop();

    const qint64 rssEnd = residentKiB();
    const int fdsEnd = openFds();
    // Every client gone: each socket it ever opened must be closed again.
    demoOwner.reset();
    QElapsedTimer closing;
    closing.start();
    while (openFds() > fdsBeforeDemo && closing.elapsed() < 5000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    const int fdsAfterDemo = openFds();
    generated.closeOpenHolds();
    const QStringList missing = differences(generated, seen);
    for (const QString &line : missing)
        say(QStringLiteral("soak: mismatch %1").arg(line));
    for (const QByteArray &key : mismatchedKeys(generated, seen))
        for (const QString &line : story.of(key))
            say(QStringLiteral("soak: story of %1: %2").arg(QString::fromUtf8(key), line));
    const qint64 drift = rssEnd - rssAfterWarmUp;
    const bool eventsOk = missing.isEmpty() && failures == 0 && monitorErrors == 0;
    // A client has at most two connections (commands, and pub/sub once it first waits), and the crashing holder's
    // replacement may open its own before the old ones are closed: more than that means a leak.
    const int fdsCeiling = fdsBeforeDemo + 2 * demoOptions.clients + 2;
    const bool fdsOk = fdsAfterDemo == fdsBeforeDemo && fdsMax <= fdsCeiling;
    const bool rssOk = drift <= kRssAllowanceKiB;
    say(QStringLiteral(
        "soak: %1 s, %2 clients on %3 locks: %4 holds generated, %5 seen by the monitor; %6 ended, %7 "
        "seen; rss %8 KiB at half-time, %9 KiB at the end (drift %10 KiB); fds %11 before the clients, at most %12 "
        "(ceiling %13), %14 at the end, %15 once they were gone")
            .arg(seconds)
            .arg(demoOptions.clients)
            .arg(demoOptions.locks)
            .arg(generated.total(&Tally::Counts::acquired))
            .arg(seen.total(&Tally::Counts::acquired))
            .arg(generated.total(&Tally::Counts::ended))
            .arg(seen.total(&Tally::Counts::ended))
            .arg(rssAfterWarmUp)
            .arg(rssEnd)
            .arg(drift)
            .arg(fdsBeforeDemo)
            .arg(fdsMax)
            .arg(fdsCeiling)
            .arg(fdsEnd)
            .arg(fdsAfterDemo));
    const QJsonObject result {
        { QStringLiteral("soak"), QStringLiteral("demo+monitor") },
        { QStringLiteral("seconds"), seconds },
        { QStringLiteral("clients"), demoOptions.clients },
        { QStringLiteral("locks"), demoOptions.locks },
        { QStringLiteral("generated"), generated.toJson() },
        { QStringLiteral("seen"), seen.toJson() },
        { QStringLiteral("client_failures"), failures },
        { QStringLiteral("monitor_errors"), monitorErrors },
        { QStringLiteral("rss_kib"),
            QJsonObject { { QStringLiteral("half_time"), rssAfterWarmUp }, { QStringLiteral("end"), rssEnd },
                { QStringLiteral("max"), rssMax }, { QStringLiteral("drift"), drift } } },
        { QStringLiteral("fds"),
            QJsonObject { { QStringLiteral("before_clients"), fdsBeforeDemo }, { QStringLiteral("max"), fdsMax },
                { QStringLiteral("ceiling"), fdsCeiling }, { QStringLiteral("half_time"), fdsAfterWarmUp },
                { QStringLiteral("end"), fdsEnd }, { QStringLiteral("after_clients"), fdsAfterDemo } } },
        { QStringLiteral("samples"), samples },
        { QStringLiteral("ok"), eventsOk && fdsOk && rssOk },
    };
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
    return eventsOk && fdsOk && rssOk ? 0 : 1;
}
