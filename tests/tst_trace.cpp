// Who a holder is (issue 49): `lockscope-cli trace` reads MONITOR for a bounded time and maps each owner id and token
// to the connection that sent it. Judged by real clients on a private redis-server: Redisson in its own JVM takes a
// watchdog lock, redsync (Go) takes a string lock while a second redsync polls for it; the trace must name the JVM's
// own connections for Redisson's owner and client id, the Go holder's for its token, and the poller as a retrier, and
// end by itself; stopped, it still reads every line up to its end. Without the monitor right the trace is refused, says
// which right, and leaves the server as it was. tst_clientlist checks the rules that read the lines and the file the
// findings are kept in.
#include "aclrules.h"
#include "clients/tracesession.h"
#include "clients/tracestore.h"
#include "clirun.h"
#include "processsockets.h"
#include "rawredis.h"
#include "redis/redisrouter.h"
#include "redisserver.h"
#include "redissoncases.h"
#include "testutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace LockScope;
using namespace LockScope::Test;

namespace {

using Identity = TraceFindings::Sighting::Identity;

const QByteArray kOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";

// The direct child of this process whose command line holds needle (a JVM the fixture started), or 0.
qint64 childPid(const QByteArray &needle)
{
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid)), cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!stat.open(QIODevice::ReadOnly) || !cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray s = stat.readAll();
        const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields.at(1).toLongLong() == ::getpid() && cmdline.readAll().contains(needle))
            return pid;
    }
    return 0;
}

quint16 portOf(const QString &addr)
{
    return quint16(addr.section(QLatin1Char(':'), -1).toUInt());
}

QJsonObject ownerEntry(const QJsonArray &owners, const QString &kind, const QByteArray &identity)
{
    for (const QJsonValue &v : owners) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("kind")).toString() == kind
            && o.value(QStringLiteral("identity")).toString().toUtf8() == identity)
            return o;
    }
    return {};
}

// Every connection the entry names is one of ports; at least one is named.
bool connectionsAmong(const QJsonObject &entry, const QSet<quint16> &ports)
{
    const QJsonArray connections = entry.value(QStringLiteral("connections")).toArray();
    if (connections.isEmpty())
        return false;
    for (const QJsonValue &c : connections)
        if (!ports.contains(portOf(c.toObject().value(QStringLiteral("addr")).toString())))
            return false;
    return true;
}

QByteArray portsText(const QSet<quint16> &ports)
{
    QByteArrayList out;
    for (const quint16 p : ports)
        out << QByteArray::number(p);
    return out.join(',');
}

} // namespace

class TestTrace : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;
    QTemporaryDir m_cache; // XDG_CACHE_HOME of the CLI and of this process: where the findings are kept
    const QString m_goBinary = QStringLiteral(LOCKSCOPE_INTEROP_DIR "/go/bin/locks");

    QProcessEnvironment environment() const
    {
        QProcessEnvironment e = cliEnvironment(m_dir);
        e.insert(QStringLiteral("XDG_CACHE_HOME"), m_cache.path());
        return e;
    }

    void startGo(QProcess &p, const QByteArray &key)
    {
        p.start(m_goBinary,
            { QStringLiteral("hold"), QStringLiteral("redsync"), QString::number(m_server.port()),
                QString::fromUtf8(key), QStringLiteral("600000") });
        QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
    }

    static QByteArray lineFrom(QProcess &p)
    {
        while (!p.canReadLine())
            if (!p.waitForReadyRead(30000))
                return {};
        return p.readLine().trimmed();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid() && m_cache.isValid());
        // Before anything here asks QStandardPaths: TraceStore looks where the CLI children keep their findings.
        qputenv("XDG_CACHE_HOME", m_cache.path().toUtf8());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    // Stopped right after the last command ran, a session still reads every MONITOR line up to that moment: the lines
    // of commands the server ran before the end count, though they were still on their way when stop() came. And
    // its own connections (MONITOR, INFO and CLIENT LIST, the router's) are not among the server's clients.
    void stoppedReadsToItsEnd()
    {
        RedisRouter router(ConnectionOptions::fromUrl(m_server.url()));
        TraceSession session(&router, TraceSession::maxDurationMs);
        QSignalSpy started(&session, &TraceSession::started);
        QSignalSpy finished(&session, &TraceSession::finished);
        session.start();
        QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, 60000);
        RawRedis raw(m_server.port());
        const qint64 rawId = raw.command({ "CLIENT", "ID" }).toInteger();
        const QByteArray key = "lock:" + uniqueKey("drain");
        constexpr int tokens = 500;
        // Each command runs before the next is sent; no event of this thread runs meanwhile, so no line is read yet.
        for (int i = 0; i < tokens; ++i)
            raw.command({ "SET", key, "drain-" + QByteArray::number(i), "NX", "PX", "60000" });
        session.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        const TraceFindings f = finished.first().at(0).value<TraceFindings>();
        QVERIFY2(!finished.first().at(1).value<RedisError>().isError(),
            qPrintable(finished.first().at(1).value<RedisError>().message()));
        QSet<QByteArray> seen;
        for (const TraceFindings::Sighting &s : f.sightings)
            if (s.identity.startsWith("drain-") && s.keys == QList<QByteArray> { key })
                seen.insert(s.identity);
        QCOMPARE(seen.size(), tokens);
        QVERIFY(f.cost.lines >= tokens);
        QVERIFY2(f.partial.isEmpty(), qPrintable(f.partial.join(QStringLiteral("; "))));
        QVERIFY(f.cost.serverCpuMs >= 0);
        bool rawListed = false;
        for (const ClientEntry &c : f.clients) {
            QVERIFY2(c.name != TraceSession::connectionName && !c.flags.contains('O'), c.addr.constData());
            rawListed = rawListed || c.id == rawId;
        }
        QVERIFY(rawListed);
        // Only the test's own connection is a client now: the router's, and the session's, were left out.
        QCOMPARE(f.clients.size(), 1);
        raw.command({ "DEL", key });
    }

    void usage_data()
    {
        QTest::addColumn<QString>("seconds");
        QTest::newRow("zero") << QStringLiteral("0");
        QTest::newRow("over 300") << QStringLiteral("301");
        QTest::newRow("not a number") << QStringLiteral("ten");
    }

    void usage()
    {
        QFETCH(QString, seconds);
        const CliRun r = runCli(
            { QStringLiteral("trace"), QStringLiteral("--seconds"), seconds, QStringLiteral("--url"), m_server.url() },
            environment());
        CLI_REFUSED(r, CliExit::Usage, "--seconds");
    }

    // Redisson's owner id and client id map to the JVM's own connections, redsync's token to its Go process's, and
    // the second redsync, polling with SET NX, is a retrier of the key; the trace ends by itself, and what it kept is
    // what it printed.
    void mapsHoldersAndWaiters()
    {
        if (!QFileInfo(m_goBinary).isExecutable())
            QFAIL(qPrintable(
                QStringLiteral("the Go lock driver %1 is not built: run scripts/dev setup").arg(m_goBinary)));
        const QStringList versions = pinnedRedissonVersions();
        QVERIFY2(!versions.isEmpty(), "no pinned Redisson version (tests/interop/redisson/versions.txt)");
        RedissonJvm java;
        if (!java.start(versions.first(), m_server.url()))
            return;
        const qint64 jvm = childPid("lockscope.interop.Driver");
        QVERIFY2(jvm > 0, "the Redisson JVM is not a child of the test");

        constexpr int seconds = 20;
        QProcess trace;
        startCli(trace,
            { QStringLiteral("trace"), QStringLiteral("--seconds"), QString::number(seconds), QStringLiteral("--json"),
                QStringLiteral("--url"), m_server.url() },
            environment());
        QByteArray err;
        const QDeadlineTimer started(120000);
        while (!err.contains("tracing ") && trace.state() != QProcess::NotRunning && !started.hasExpired()) {
            trace.waitForReadyRead(100);
            err += trace.readAllStandardError();
        }
        QVERIFY2(err.contains("tracing 127.0.0.1:" + QByteArray::number(m_server.port()) + " for 20 s: MONITOR"),
            err.constData());

        // What the trace is to see: a redsync holder, a redsync waiter polling for its key, a Redisson watchdog lock.
        const QByteArray key = "lock:" + uniqueKey("trace");
        QProcess holder, poller;
        startGo(holder, key);
        const QByteArray held = lineFrom(holder);
        QVERIFY2(held.startsWith("held "), (held + holder.readAllStandardError()).constData());
        const QByteArray token = held.mid(5);
        QSet<quint16> holderPorts = childTcpPorts(pid_t(holder.processId()));
        startGo(poller, key);
        const QByteArray name = uniqueKey("trace-redisson");
        const QJsonObject locked = java.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, name));
        QVERIFY2(locked.value(QStringLiteral("ok")).toBool(), QJsonDocument(locked).toJson().constData());
        const QByteArray owner = locked.value(QStringLiteral("owner")).toString().toUtf8();
        QVERIFY(owner.startsWith(java.clientId() + ':'));

        // The trace ends by itself: no signal comes from here. Meanwhile the processes' ports are read while they
        // live (the poller gives up after its tries and exits).
        QSet<quint16> jvmPorts = childTcpPorts(pid_t(jvm)), pollerPorts, tracePorts;
        const QDeadlineTimer deadline((seconds + 60) * 1000);
        while (trace.state() != QProcess::NotRunning && !deadline.hasExpired()) {
            if (poller.state() == QProcess::Running)
                pollerPorts += childTcpPorts(pid_t(poller.processId()));
            holderPorts += childTcpPorts(pid_t(holder.processId()));
            jvmPorts += childTcpPorts(pid_t(jvm));
            tracePorts += childTcpPorts(pid_t(trace.processId()));
            trace.waitForFinished(100);
        }
        const CliRun r = finishCli(trace, 1000, CliWait::Blocking, err);
        CLI_EXIT(r, CliExit::Done);
        holder.write("release\n");
        QVERIFY(lineFrom(holder).startsWith("released"));
        QVERIFY(holder.waitForFinished(30000));
        poller.kill();
        poller.waitForFinished(30000);
        QVERIFY(java.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name))
                    .value(QStringLiteral("ok"))
                    .toBool());

        const QJsonObject out = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(!out.isEmpty(), r.describe().constData());
        const QByteArray shown = r.out;
        const QJsonArray owners = out.value(QStringLiteral("owners")).toArray();
        QVERIFY2(connectionsAmong(ownerEntry(owners, QStringLiteral("owner"), owner), jvmPorts),
            ("Redisson's owner " + owner + " is not mapped to the JVM's ports " + portsText(jvmPorts) + ": " + shown)
                .constData());
        QVERIFY2(connectionsAmong(ownerEntry(owners, QStringLiteral("client"), java.clientId()), jvmPorts),
            ("Redisson's client id is not mapped to the JVM's ports " + portsText(jvmPorts) + ": " + shown)
                .constData());
        QVERIFY2(connectionsAmong(ownerEntry(owners, QStringLiteral("token"), token), holderPorts),
            ("redsync's token " + token + " is not mapped to its process's ports " + portsText(holderPorts) + ": "
                + shown)
                .constData());
        bool polled = false;
        for (const QJsonValue &v : out.value(QStringLiteral("retriers")).toArray()) {
            const QJsonObject o = v.toObject();
            polled = polled
                || (o.value(QStringLiteral("key")).toString().toUtf8() == key
                    && o.value(QStringLiteral("attempts")).toInteger() >= 2
                    && pollerPorts.contains(portOf(o.value(QStringLiteral("addr")).toString())));
        }
        QVERIFY2(polled,
            ("the polling redsync (ports " + portsText(pollerPorts) + ") is not a retrier of " + key + ": " + shown)
                .constData());
        // The trace's own connections (MONITOR, INFO and CLIENT LIST, the router's) are not the server's clients; the
        // JVM's are, by their ports.
        QVERIFY(!tracePorts.isEmpty());
        bool jvmListed = false;
        for (const QJsonValue &v : out.value(QStringLiteral("clients")).toArray()) {
            const QJsonObject c = v.toObject();
            QVERIFY2(c.value(QStringLiteral("name")).toString() != QLatin1String("lockscope-trace"), shown.constData());
            QVERIFY2(!tracePorts.contains(portOf(c.value(QStringLiteral("addr")).toString())),
                ("the trace lists a connection of its own (its ports " + portsText(tracePorts) + "): " + shown)
                    .constData());
            jvmListed = jvmListed || jvmPorts.contains(portOf(c.value(QStringLiteral("addr")).toString()));
        }
        QVERIFY2(jvmListed, shown.constData());
        const QJsonObject cost = out.value(QStringLiteral("cost")).toObject();
        QVERIFY(cost.value(QStringLiteral("monitor_lines")).toInteger() > 0);
        QVERIFY(cost.value(QStringLiteral("server_cpu_ms")).toInteger() >= 0);
        QVERIFY2(!out.value(QStringLiteral("partial")).toObject().value(QStringLiteral("partial")).toBool(),
            shown.constData());

        // What the CLI kept is what it printed: every owner, token and connection, every connection listed.
        const std::optional<TraceFindings> kept = TraceStore::load(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY2(kept, qPrintable(TraceStore::path(ConnectionOptions::fromUrl(m_server.url()))));
        QSet<QString> printed, stored;
        for (const QJsonValue &v : owners) {
            const QJsonObject o = v.toObject();
            for (const QJsonValue &c : o.value(QStringLiteral("connections")).toArray())
                printed << o.value(QStringLiteral("kind")).toString() + QLatin1Char(' ')
                        + o.value(QStringLiteral("identity")).toString() + QLatin1Char(' ')
                        + c.toObject().value(QStringLiteral("addr")).toString();
        }
        for (const TraceFindings::Sighting &s : kept->sightings)
            stored << QLatin1String(s.kind == Identity::Owner ? "owner"
                              : s.kind == Identity::Client    ? "client"
                                                              : "token")
                    + QLatin1Char(' ') + QString::fromUtf8(s.identity) + QLatin1Char(' ') + QString::fromUtf8(s.addr);
        QCOMPARE(stored, printed);
        QSet<qint64> printedIds, storedIds;
        for (const QJsonValue &v : out.value(QStringLiteral("clients")).toArray())
            printedIds << v.toObject().value(QStringLiteral("id")).toInteger();
        for (const ClientEntry &c : kept->clients)
            storedIds << c.id;
        QCOMPARE(storedIds, printedIds);
        bool keptPoll = false;
        for (const TraceFindings::Retrier &k : kept->retriers)
            keptPoll = keptPoll || (k.key == key && k.attempts >= 2);
        QVERIFY(keptPoll);
        QCOMPARE(kept->cost.lines, cost.value(QStringLiteral("monitor_lines")).toInteger());
    }

    // A user without +monitor (the README's monitor user): refused, the right named, nothing left behind, nothing
    // sent after the refusal, no MONITOR ever running.
    void refusedWithoutTheRight()
    {
        RawRedis admin(m_server.port());
        QStringList rules = kMonitorRules;
        QList<QByteArray> setuser { "ACL", "SETUSER", "tracer", "reset", "on", ">tracerpw" };
        for (const QString &rule : rules)
            setuser << rule.toUtf8();
        QCOMPARE(admin.command(setuser).bytes(), QByteArray("OK"));
        QCOMPARE(admin.command({ "ACL", "LOG", "RESET" }).bytes(), QByteArray("OK"));
        RawRedis watcher(m_server.port());
        watcher.command({ "CLIENT", "SETNAME", "test-watcher" });
        admin.command({ "SET", "lock:refused", "tok", "PX", "600000" });
        admin.command({ "HSET", "orders:refused", kOwner, "1" });
        const auto keys = [&admin] {
            QMap<QByteArray, QByteArray> out;
            const RedisValue all = admin.command({ "KEYS", "*" }); // elements() refers into it: kept while read
            for (const RedisValue &k : all.elements())
                out.insert(k.bytes(), admin.command({ "DUMP", k.bytes() }).bytes());
            return out;
        };
        // The test's own connections as the server lists them: id, name, database.
        const auto own = [&admin] {
            QSet<QByteArray> out;
            for (const ClientEntry &c : parseClientList(admin.command({ "CLIENT", "LIST" }).bytes()))
                if (c.name == "test-watcher" || c.cmd == "client|list")
                    out << QByteArray::number(c.id) + ' ' + c.name + ' ' + QByteArray::number(c.db);
            return out;
        };
        const QMap<QByteArray, QByteArray> keysBefore = keys();
        const QSet<QByteArray> ownBefore = own();

        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("TRACE_PW"), QStringLiteral("tracerpw"));
        QProcess p;
        startCli(p,
            { QStringLiteral("trace"), QStringLiteral("--seconds"), QStringLiteral("5"), QStringLiteral("--url"),
                QStringLiteral("redis://tracer@127.0.0.1:%1/0").arg(m_server.port()), QStringLiteral("--password-env"),
                QStringLiteral("TRACE_PW") },
            env);
        // While it runs, and after: no connection of the server is ever a MONITOR (flag O).
        bool monitorSeen = false;
        while (p.state() != QProcess::NotRunning) {
            for (const ClientEntry &c : parseClientList(watcher.command({ "CLIENT", "LIST" }).bytes()))
                monitorSeen = monitorSeen || c.flags.contains('O') || c.name == "lockscope-trace";
            p.waitForFinished(20);
        }
        const CliRun r = finishCli(p);
        CLI_REFUSED(r, CliExit::Refused, "MONITOR was refused for user 'tracer'");
        QVERIFY2(r.err.contains("+monitor") && r.err.contains("@admin"), r.describe().constData());
        QVERIFY2(r.out.isEmpty(), r.describe().constData());
        QVERIFY(!monitorSeen);
        for (const ClientEntry &c : parseClientList(watcher.command({ "CLIENT", "LIST" }).bytes()))
            QVERIFY2(!c.flags.contains('O'), c.flags.constData());
        QCOMPARE(keys(), keysBefore);
        QCOMPARE(own(), ownBefore);
        // The server's own log of refusals: MONITOR was tried once, and nothing was asked after it (no CLIENT LIST).
        int monitorTries = 0;
        const RedisValue log = admin.command({ "ACL", "LOG" });
        for (const RedisValue &entry : log.elements()) {
            QByteArray object, user;
            for (int i = 0; i + 1 < entry.size(); i += 2) {
                if (entry.at(i).bytes() == "object")
                    object = entry.at(i + 1).bytes();
                if (entry.at(i).bytes() == "username")
                    user = entry.at(i + 1).bytes();
            }
            QCOMPARE(user, QByteArray("tracer"));
            QVERIFY2(object != "client|list", "CLIENT LIST was sent after MONITOR's refusal");
            monitorTries += object == "monitor";
        }
        QCOMPARE(monitorTries, 1);
        admin.command({ "DEL", "lock:refused", "orders:refused" });
    }

    // With +monitor but without CLIENT LIST the trace runs, and says what it could not see. --read-only takes nothing
    // from it: MONITOR, INFO and CLIENT LIST write nothing.
    void clientListDenied()
    {
        RawRedis admin(m_server.port());
        QCOMPARE(admin
                     .command({ "ACL", "SETUSER", "blindtracer", "reset", "on", ">pw", "~*", "&*", "+monitor", "+info",
                         "+client", "-client|list" })
                     .bytes(),
            QByteArray("OK"));
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("TRACE_PW"), QStringLiteral("pw"));
        const CliRun r = runCli({ QStringLiteral("trace"), QStringLiteral("--seconds"), QStringLiteral("1"),
                                    QStringLiteral("--json"), QStringLiteral("--read-only"), QStringLiteral("--url"),
                                    QStringLiteral("redis://blindtracer@127.0.0.1:%1/0").arg(m_server.port()),
                                    QStringLiteral("--password-env"), QStringLiteral("TRACE_PW") },
            env);
        CLI_EXIT(r, CliExit::Done);
        const QJsonObject out = QJsonDocument::fromJson(r.out).object();
        const QJsonObject partial = out.value(QStringLiteral("partial")).toObject();
        QVERIFY2(partial.value(QStringLiteral("partial")).toBool(), r.out.constData());
        QVERIFY2(partial.value(QStringLiteral("why")).toArray().contains(QStringLiteral("CLIENT LIST denied")),
            r.out.constData());
        QVERIFY(out.value(QStringLiteral("clients")).toArray().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTrace)
#include "tst_trace.moc"
