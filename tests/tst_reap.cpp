// The guarded reaper (lockscope-cli reap), as support staff run it on a fleet's server: a policy over a mixed keyspace
// (live Redisson holders, a killed one, home-grown locks without a TTL, application data) releases exactly the dead
// holds, and the waiter behind the killed one wakes; the flow's guards each stop what they are for: a lock that
// changed between the report and its approval is left alone, the quota and protected names hold, an approval whose
// report was altered or whose hash is not this report's is refused, a rule with one signal is refused. And the rules
// themselves, judged on inputs built by hand.
#include "clirun.h"
#include "homegrownlocks.h"
#include "rawredis.h"
#include "redisserver.h"
#include "redissonfixture.h"
#include "testutil.h"
#include "tracewhile.h"

#include "base/quantities.h"
#include "clients/tracestore.h"
#include "kinds/locknames.h"
#include "reclaim/reappolicy.h"
#include "reclaim/reapwatch.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSysInfo>
#include <QTcpSocket>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// p's home-grown locks as lockscope-cli is told of them.
QStringList templateArgs(const QByteArray &p)
{
    return { QStringLiteral("--owner-template"), QString::fromUtf8(homeGrownTemplate(p)) };
}

QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> lines;
    for (const QByteArray &line : out.split('\n'))
        if (!line.trimmed().isEmpty())
            lines << QJsonDocument::fromJson(line).object();
    return lines;
}

// The report's items with this action, by name.
QStringList itemsWith(const QList<QJsonObject> &lines, const QString &action)
{
    QStringList names;
    for (const QJsonObject &o : lines)
        if (o.value(QStringLiteral("action")).toString() == action && !o.contains(QStringLiteral("report_sha256")))
            names << o.value(QStringLiteral("name")).toString();
    names.sort();
    return names;
}

QJsonObject summaryOf(const QList<QJsonObject> &lines)
{
    return lines.isEmpty() ? QJsonObject() : lines.last();
}

QStringList sorted(QStringList names)
{
    names.sort();
    return names;
}
} // namespace

class TestReap : public QObject
{
    Q_OBJECT
    RedissonFixture m_fixture;
    RedisServer &m_server = m_fixture.server;

    QString writePolicy(const QByteArray &p, const QByteArray &yaml)
    {
        const QString path = m_fixture.dir.filePath(QString::fromUtf8(p) + QStringLiteral(".yaml"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(yaml);
        return path;
    }
    QString writeFile(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_fixture.dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(bytes);
        return path;
    }
    // A policy with one rule over the home-grown locks under p: no TTL, held over a minute, likely dead.
    QString homeGrownPolicy(const QByteArray &p, const QByteArray &extra = {}, const QByteArray &file = {})
    {
        return writePolicy(file.isEmpty() ? p : file, Test::homeGrownPolicy(p, "nightly-" + p, extra));
    }
    CliRun reap(const QByteArray &p, const QString &policy, const QStringList &more)
    {
        return m_fixture.cli(
            QStringList { QStringLiteral("reap"), QStringLiteral("--policy"), policy } + more + templateArgs(p));
    }
    // serve-metrics on a free loopback port with policy as its reaper's; its /metrics URL once it listens.
    QUrl serveMetrics(QProcess &serve, const QByteArray &p, const QString &policy)
    {
        startCli(serve,
            QStringList { QStringLiteral("--json"), QStringLiteral("serve-metrics"), QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:0"), QStringLiteral("--reap-policy"), policy, QStringLiteral("--url"),
                m_server.url() }
                + templateArgs(p),
            m_fixture.dir);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(serve.canReadLine(), 30000); }();
        if (!serve.canReadLine())
            return {};
        return QUrl(QJsonDocument::fromJson(serve.readLine()).object().value(QStringLiteral("listening")).toString());
    }
    // The page at url, by a plain HTTP/1.0 GET.
    static QByteArray scrape(const QUrl &url)
    {
        QTcpSocket socket;
        socket.connectToHost(url.host(), quint16(url.port()));
        if (!socket.waitForConnected(10000))
            return {};
        socket.write("GET " + url.path().toUtf8() + " HTTP/1.0\r\nHost: " + url.host().toUtf8() + "\r\n\r\n");
        // Read until the body its Content-Length announces is in: the server may keep the connection open.
        QByteArray page;
        while (socket.waitForReadyRead(10000)) {
            page += socket.readAll();
            const qsizetype headersEnd = page.indexOf("\r\n\r\n");
            if (headersEnd < 0)
                continue;
            static const QRegularExpression length(QStringLiteral("(?i)content-length:\\s*(\\d+)"));
            const QRegularExpressionMatch m = length.match(QString::fromLatin1(page.left(headersEnd)));
            if (m.hasMatch() && page.size() - headersEnd - 4 >= m.captured(1).toLongLong())
                break;
        }
        return page;
    }
    // Two dead home-grown holds under p, the one-rule policy over them, and its dry run (--json).
    struct TwoDead
    {
        QByteArray a, b;
        QString policy;
        CliRun report;
    };
    TwoDead twoDead(RawRedis &raw, const QByteArray &p)
    {
        TwoDead t { homeGrown(raw, p, "a", "run1", true), homeGrown(raw, p, "b", "run2", true), homeGrownPolicy(p),
            {} };
        t.report = reap(p, t.policy, { QStringLiteral("--dry-run"), QStringLiteral("--json") });
        return t;
    }
    QList<QJsonObject> reapAudit() const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &o : auditLines(m_fixture.dir.filePath(QStringLiteral("audit.log"))))
            if (o.value(QStringLiteral("action")).toString() == QLatin1String("reap"))
                out << o;
        return out;
    }

private slots:
    void initTestCase()
    {
        m_fixture.start();
        // Where lockscope-cli keeps a trace's findings (cliEnvironment's XDG_CACHE_HOME): the test saves one there.
        qputenv("XDG_CACHE_HOME", m_fixture.dir.filePath(QStringLiteral("cache")).toUtf8());
    }

    // Killed holders and live ones side by side: the report names exactly the dead holds, the approved run releases
    // them, the waiter blocked behind the killed Redisson holder wakes and takes the lock, and every live hold and
    // every key that is not a lock stays as it was, byte for byte.
    void mixedKeyspaceLosesExactlyTheDead()
    {
        const QByteArray p = uniqueKey("reap-mixed");
        const QByteArray liveOrders = p + ":orders:live", deadOrders = p + ":orders:dead";
        RawRedis raw(m_server.port());
        RedissonJvm live, killed;
        const QString version = pinnedRedissonVersions().first();
        QVERIFY(live.start(version, m_server.url()));
        QVERIFY(killed.start(version, m_server.url()));
        // Both holds traced as they are taken: their connections are then known, and so whether they are still there.
        QString deadOwner;
        const TraceFindings findings = traceWhile(m_server.url(), [&] {
            QJsonObject r = live.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, liveOrders));
            QVERIFY2(r.value(QStringLiteral("ok")).toBool(), QJsonDocument(r).toJson().constData());
            r = killed.call(redissonCall(
                QStringLiteral("lock"), QStringLiteral("a"), {}, deadOrders, { { QStringLiteral("lease"), 600000 } }));
            QVERIFY2(r.value(QStringLiteral("ok")).toBool(), QJsonDocument(r).toJson().constData());
            deadOwner = r.value(QStringLiteral("owner")).toString();
        });
        QString error;
        QVERIFY2(TraceStore::save(ConnectionOptions::fromUrl(m_server.url()), findings, &error), qPrintable(error));
        killed.kill();
        // The server drops a killed client's connections a moment after the process is gone: until then they are
        // still listed, and rightly not "gone".
        QList<QByteArray> killedAddrs;
        for (const TraceFindings::Sighting &seen : findings.sightings)
            if (seen.identity.startsWith(killed.clientId()))
                killedAddrs << seen.addr;
        QVERIFY(!killedAddrs.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QByteArray list = raw.command({ "CLIENT", "LIST" }).bytes();
                for (const QByteArray &addr : killedAddrs)
                    if (list.contains("addr=" + addr + ' '))
                        return false;
                return true;
            }(),
            30000);
        // A live thread waits for the killed holder's lock: only the release's message wakes it before the lease ends.
        const int waiter = live.send(redissonCall(QStringLiteral("tryLock"), QStringLiteral("w"), {}, deadOrders,
            { { QStringLiteral("wait"), 300000 }, { QStringLiteral("lease"), 600000 } }));
        QTRY_VERIFY_WITH_TIMEOUT(
            raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(deadOrders) }).at(1).toInteger() >= 1, 30000);

        const QByteArray deadImport = homeGrown(raw, p, "import", "run7", true);
        const QByteArray liveExport = homeGrown(raw, p, "export", "run8", false);
        // Dead, but with a lease: it ends by itself, and the rule is for locks that never do.
        const QByteArray deadLeased = homeGrown(raw, p, "leased", "run9", true);
        raw.command({ "EXPIRE", deadLeased, "600" });
        // Application data, some of it under the locks' own names: a profile hash, a text where a lock's token would
        // be, a hash of counts under the Redisson pattern that no one holds, a list.
        raw.command({ "HSET", p + ":lock:profile", "name", "alice" });
        raw.command({ "SET", p + ":lock:text", "hello world" });
        raw.command({ "HSET", p + ":orders:stats", "count", "not-a-count" });
        raw.command({ "RPUSH", p + ":orders:queue", "a", "b" });
        const QList<QByteArray> untouched { liveOrders, liveExport, deadLeased, p + ":lock:profile", p + ":lock:text",
            p + ":orders:stats", p + ":orders:queue" };
        QList<QByteArray> before;
        for (const QByteArray &key : untouched)
            before << raw.command({ "DUMP", key }).bytes();

        const QString policy = writePolicy(p,
            "name: fleet\nmax_per_run: 10\nrules:\n"
            "  - name: dead-redisson\n    pattern: \""
                + p
                + ":*\"\n    library: redisson\n"
                  "    connection_gone: true\n    min_age: 1s\n"
                  "  - name: dead-imports\n    pattern: \""
                + p
                + ":lock:*\"\n    kind: string\n    ttl: none\n"
                  "    min_age: 1m\n    verdict_for: 0s\n");
        // Watched two seconds: long enough for the Redisson hold's age (first seen by the run) to pass its min_age.
        const QStringList observe { QStringLiteral("--observe"), QStringLiteral("2000") };
        CliRun r = reap(p, policy, QStringList { QStringLiteral("--dry-run"), QStringLiteral("--json") } + observe);
        QVERIFY2(r.exitCode == CliExit::Done, r.describe().constData());
        const QList<QJsonObject> report = jsonLines(r.out);
        QCOMPARE(itemsWith(report, QStringLiteral("release")),
            sorted({ QString::fromUtf8(deadOrders), QString::fromUtf8(deadImport) }));
        for (const QJsonObject &o : report)
            if (o.value(QStringLiteral("name")).toString() == QString::fromUtf8(deadOrders))
                QCOMPARE(o.value(QStringLiteral("owner")).toString(), deadOwner);
        QVERIFY2(summaryOf(report).value(QStringLiteral("report_sha256")).toString().size() == 64, r.out.constData());
        // The dry run changed nothing.
        QCOMPARE(raw.command({ "EXISTS", deadOrders, deadImport }).toInteger(), 2);
        const qsizetype audited = reapAudit().size();

        const QString reportFile = writeFile(QString::fromUtf8(p) + QStringLiteral(".jsonl"), r.out);
        r = reap(p, policy,
            QStringList { QStringLiteral("--approve"), reportFile, QStringLiteral("--json"), QStringLiteral("--reason"),
                QStringLiteral("INC-4711") }
                + observe);
        QVERIFY2(r.exitCode == CliExit::Done, r.describe().constData());
        QCOMPARE(raw.command({ "EXISTS", deadImport }).toInteger(), 0);
        // The waiter was woken by the release's message and holds the lock now, its lease not the dead one's.
        const std::optional<QJsonObject> woke = live.reply(waiter, 60000);
        QVERIFY(woke);
        QVERIFY2(woke->value(QStringLiteral("ok")).toBool() && woke->value(QStringLiteral("value")).toBool(),
            QJsonDocument(*woke).toJson().constData());
        QCOMPARE(raw.command({ "HEXISTS", deadOrders, deadOwner.toUtf8() }).toInteger(), 0);
        for (int i = 0; i < untouched.size(); ++i)
            QVERIFY2(raw.command({ "DUMP", untouched.at(i) }).bytes() == before.at(i), untouched.at(i).constData());

        // One audit record per lock, each naming the report it was approved in and how it was verified.
        const QList<QJsonObject> records = reapAudit().mid(audited);
        QCOMPARE(records.size(), 2);
        for (const QJsonObject &o : records) {
            QCOMPARE(o.value(QStringLiteral("report_sha256")).toString(),
                summaryOf(report).value(QStringLiteral("report_sha256")).toString());
            QCOMPARE(o.value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));
            QCOMPARE(o.value(QStringLiteral("reason")).toString(), QStringLiteral("INC-4711"));
            QVERIFY2(QStringList({ QStringLiteral("gone"), QStringLiteral("new-owner") })
                         .contains(o.value(QStringLiteral("verified")).toString()),
                QJsonDocument(o).toJson().constData());
            QVERIFY(!o.value(QStringLiteral("evidence")).toArray().isEmpty());
        }
        live.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("w"), {}, deadOrders));
        live.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, liveOrders));
    }

    // The report approved, then one of its locks taken by a live owner before the run: that one is left alone and
    // said so, the other released; the run says not everything was done.
    void aLockChangedSinceTheReportIsLeftAlone()
    {
        const QByteArray p = uniqueKey("reap-changed");
        RawRedis raw(m_server.port());
        const auto [a, b, policy, dry] = twoDead(raw, p);
        CliRun r = dry;
        QVERIFY2(r.exitCode == CliExit::Done, r.describe().constData());
        QCOMPARE(itemsWith(jsonLines(r.out), QStringLiteral("release")),
            sorted({ QString::fromUtf8(a), QString::fromUtf8(b) }));
        const QString reportFile = writeFile(QString::fromUtf8(p) + QStringLiteral(".jsonl"), r.out);
        const qsizetype audited = reapAudit().size();

        // Meanwhile run2's lock was released and taken by a live run.
        raw.command({ "DEL", b });
        homeGrown(raw, p, "b", "run3", false);
        const QByteArray taken = raw.command({ "GET", b }).bytes();
        r = reap(p, policy, { QStringLiteral("--approve"), reportFile, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == CliExit::NotDone, r.describe().constData());
        QCOMPARE(raw.command({ "EXISTS", a }).toInteger(), 0);
        QCOMPARE(raw.command({ "GET", b }).bytes(), taken);
        bool said = false;
        for (const QJsonObject &o : jsonLines(r.out))
            if (o.value(QStringLiteral("name")).toString() == QString::fromUtf8(b))
                said = o.value(QStringLiteral("left_alone")).toString().contains(QStringLiteral("changed"));
        QVERIFY2(said, r.out.constData());
        const QList<QJsonObject> records = reapAudit().mid(audited);
        QCOMPARE(records.size(), 1);
        QCOMPARE(records.first().value(QStringLiteral("name")).toString(), QString::fromUtf8(a));
        raw.command({ "DEL", b });
    }

    // Three dead locks, a quota of two and one protected name: the oldest two go, the third waits for a later run, the
    // protected one is never touched.
    void theQuotaAndProtectedNamesHold()
    {
        const QByteArray p = uniqueKey("reap-quota");
        RawRedis raw(m_server.port());
        QList<QByteArray> dead;
        for (const char *lock : { "a", "b", "c" })
            dead << homeGrown(raw, p, lock, QByteArray("run-") + lock, true);
        const QByteArray kept = homeGrown(raw, p, "billing", "run-billing", true);
        const QString policy = homeGrownPolicy(p, "max_per_run: 2\nprotect: [\"" + p + ":lock:billing\"]\n");
        CliRun r = reap(p, policy, { QStringLiteral("--dry-run"), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == CliExit::Done, r.describe().constData());
        const QList<QJsonObject> report = jsonLines(r.out);
        QCOMPARE(itemsWith(report, QStringLiteral("release")).size(), 2);
        QCOMPARE(itemsWith(report, QStringLiteral("over-quota")).size(), 1);
        QCOMPARE(itemsWith(report, QStringLiteral("protected")), QStringList { QString::fromUtf8(kept) });
        QCOMPARE(summaryOf(report).value(QStringLiteral("to_release")).toInt(), 2);

        const qsizetype audited = reapAudit().size();
        r = reap(p, policy,
            { QStringLiteral("--approve"), summaryOf(report).value(QStringLiteral("report_sha256")).toString() });
        QVERIFY2(r.exitCode == CliExit::Done, r.describe().constData());
        int left = 0;
        for (const QByteArray &name : dead)
            left += int(raw.command({ "EXISTS", name }).toInteger());
        QCOMPARE(left, 1);
        QCOMPARE(raw.command({ "EXISTS", kept }).toInteger(), 1);
        QCOMPARE(reapAudit().size() - audited, 2);
        raw.command({ "DEL", kept, dead.at(0), dead.at(1), dead.at(2) });
    }

    // An approval is for one report exactly: a report file edited after its dry run, or a hash that is not this
    // run's report, releases nothing.
    void anAlteredOrForeignApprovalIsRefused()
    {
        const QByteArray p = uniqueKey("reap-approval");
        RawRedis raw(m_server.port());
        const auto [a, b, policy, dry] = twoDead(raw, p);
        CliRun r = dry;
        QVERIFY2(r.exitCode == CliExit::Done, r.describe().constData());
        const qsizetype audited = reapAudit().size();

        // Someone drops one lock from the file but keeps its hash.
        QByteArrayList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        lines.removeAt(lines.first().contains(a) ? 1 : 0);
        const QString altered = writeFile(QString::fromUtf8(p) + QStringLiteral(".jsonl"), lines.join('\n'));
        r = reap(p, policy, { QStringLiteral("--approve"), altered });
        QVERIFY2(r.exitCode == CliExit::NotDone, r.describe().constData());
        QVERIFY2(r.err.contains("changed after its dry run"), r.describe().constData());
        QCOMPARE(raw.command({ "EXISTS", a, b }).toInteger(), 2);

        // A hash of some other report.
        r = reap(p, policy, { QStringLiteral("--approve"), QString(64, QLatin1Char('0')) });
        QVERIFY2(r.exitCode == CliExit::NotDone, r.describe().constData());
        QVERIFY2(r.err.contains("not the one approved"), r.describe().constData());
        QCOMPARE(raw.command({ "EXISTS", a, b }).toInteger(), 2);
        QCOMPARE(reapAudit().size(), audited);
        raw.command({ "DEL", a, b });
    }

    // Mistakes in the policy or the flow are usage errors before anything is read; read-only mode refuses.
    void refusalsBeforeAnythingIsRead()
    {
        const QByteArray p = uniqueKey("reap-usage");
        RawRedis raw(m_server.port());
        const QByteArray a = homeGrown(raw, p, "a", "run1", true);
        const QString oneSignal
            = writePolicy(p + "-one", "rules:\n  - name: old\n    pattern: \"" + p + ":lock:*\"\n    min_age: 1h\n");
        CliRun r = reap(p, oneSignal, { QStringLiteral("--yes") });
        QVERIFY2(r.exitCode == CliExit::Usage, r.describe().constData());
        QVERIFY2(r.err.contains("a rule needs two"), r.describe().constData());
        const QString unknownKey = writePolicy(
            p + "-key", "rules:\n  - pattern: x\n    min_age: 1h\n    connection_gone: true\n    older_than: 2h\n");
        r = reap(p, unknownKey, { QStringLiteral("--dry-run") });
        QVERIFY2(r.exitCode == CliExit::Usage && r.err.contains("older_than"), r.describe().constData());
        const QString policy = homeGrownPolicy(p);
        // --yes alone is for policies written to run unattended.
        r = reap(p, policy, { QStringLiteral("--yes") });
        QVERIFY2(r.exitCode == CliExit::Usage && r.err.contains("unattended"), r.describe().constData());
        r = reap(p, policy, { QStringLiteral("--yes"), QStringLiteral("--read-only") });
        QCOMPARE(r.exitCode, CliExit::Refused);
        r = m_fixture.cli({ QStringLiteral("reap") });
        QCOMPARE(r.exitCode, CliExit::Usage);
        QCOMPARE(raw.command({ "EXISTS", a }).toInteger(), 1);

        // Unattended, --yes releases what the run's own report shows.
        const QString unattended = homeGrownPolicy(p, "unattended: true\n", p + "-unattended");
        r = reap(p, unattended, { QStringLiteral("--yes") });
        QVERIFY2(r.exitCode == CliExit::Done, r.describe().constData());
        QCOMPARE(raw.command({ "EXISTS", a }).toInteger(), 0);
    }

    // serve-metrics with a policy: an unattended one releases the dead hold on its own (audited, counted), and leaves
    // the live one; any other only reports, counting what it would release.
    void serveMetricsReaps()
    {
        const QByteArray p = uniqueKey("reap-serve");
        RawRedis raw(m_server.port());
        const QByteArray dead = homeGrown(raw, p, "dead", "run1", true);
        const QByteArray live = homeGrown(raw, p, "live", "run2", false);
        const QByteArray liveValue = raw.command({ "GET", live }).bytes();
        const qsizetype audited = reapAudit().size();

        const QString reportOnly = homeGrownPolicy(p, "every: 1s\n", p + "-report");
        QProcess reporting;
        const QUrl reportingUrl = serveMetrics(reporting, p, reportOnly);
        QVERIFY(reportingUrl.isValid());
        const QByteArray candidates = "lockscope_reap_candidates{policy=\"nightly-" + p + "\",rule=\"dead-imports\"} 1";
        QTRY_VERIFY_WITH_TIMEOUT(scrape(reportingUrl).contains(candidates), 60000);
        QCOMPARE(raw.command({ "EXISTS", dead }).toInteger(), 1);
        reporting.terminate();
        QVERIFY(reporting.waitForFinished(30000));

        const QString unattended = homeGrownPolicy(p, "every: 1s\nunattended: true\n", p + "-unattended");
        QProcess reaping;
        const QUrl reapingUrl = serveMetrics(reaping, p, unattended);
        QVERIFY(reapingUrl.isValid());
        QTRY_VERIFY_WITH_TIMEOUT(raw.command({ "EXISTS", dead }).toInteger() == 0, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(
            scrape(reapingUrl).contains("lockscope_reap_released_total{policy=\"nightly-" + p + "\"} 1"), 60000);
        QCOMPARE(raw.command({ "GET", live }).bytes(), liveValue);
        reaping.terminate();
        QVERIFY(reaping.waitForFinished(30000));
        QCOMPARE(reaping.exitCode(), 0);
        const QList<QJsonObject> records = reapAudit().mid(audited);
        QCOMPARE(records.size(), 1);
        QCOMPARE(records.first().value(QStringLiteral("name")).toString(), QString::fromUtf8(dead));
        QVERIFY(records.first().value(QStringLiteral("reason")).toString().contains(QStringLiteral("unattended")));
        raw.command({ "DEL", live });
    }

    // The rules' signals, judged on what a watch would have seen.
    void signalsAsTheRuleNamesThem()
    {
        ReapRule rule;
        rule.minAgeMs = 60000;
        rule.verdictForMs = 300000;
        ReapSignals s;
        s.heldMs = 120000;
        s.likelyDead = true;
        s.likelyDeadForMs = 299999;
        QStringList evidence;
        QVERIFY(!reapSignalsHold(rule, s, &evidence));
        QVERIFY2(evidence.join(QLatin1Char('\n')).contains(QStringLiteral("only")), qPrintable(evidence.join('\n')));
        s.likelyDeadForMs = 300000;
        evidence.clear();
        QVERIFY(reapSignalsHold(rule, s, &evidence));
        QCOMPARE(evidence.size(), 2);
        s.heldMs = -1; // not known how long it has been held: not old enough
        QVERIFY(!reapSignalsHold(rule, s, &evidence));

        ReapRule gone;
        gone.minAgeMs = 0;
        gone.connectionGone = true;
        ReapSignals unknown;
        unknown.heldMs = 10;
        evidence.clear();
        QVERIFY(!reapSignalsHold(gone, unknown, &evidence)); // no connection known: not "gone"
        QVERIFY(evidence.last().contains(QStringLiteral("no connection is known")));
        unknown.connectionKnown = unknown.connectionGone = true;
        QVERIFY(reapSignalsHold(gone, unknown, &evidence));

        QCOMPARE(parseDurationMs(QStringLiteral("90s")), 90000);
        QCOMPARE(parseDurationMs(QStringLiteral("5m")), 300000);
        QCOMPARE(parseDurationMs(QStringLiteral("2h")), 7200000);
        QCOMPARE(parseDurationMs(QStringLiteral("250ms")), 250);
        QCOMPARE(parseDurationMs(QStringLiteral("30")), 30000);
        QCOMPARE(parseDurationMs(QStringLiteral("-5m")), -1);
        QCOMPARE(parseDurationMs(QStringLiteral("5 minutes")), -1);

        QString error;
        std::optional<ReapPolicy> policy = ReapPolicy::parse(
            "rules:\n  - pattern: \"jobs:*\"\n    kind: [string, reentrant]\n    library: redisson\n    min_age: 1h\n"
            "    verdict_for: 10m\n    max_per_run: 3\n",
            QStringLiteral("file"), &error);
        QVERIFY2(policy, qPrintable(error));
        QCOMPARE(policy->name, QStringLiteral("file"));
        QCOMPARE(policy->maxPerRun, 10);
        QCOMPARE(policy->observeMs(), 600000);
        QCOMPARE(policy->rules.first().maxPerRun, 3);
        QVERIFY(!policy->unattended);
        LockInfo lock;
        lock.name = "jobs:1";
        lock.kind = LockInfo::Kind::Reentrant;
        lock.library = "redisson";
        lock.ttlMs = 3000;
        QVERIFY(policy->ruleFor(lock));
        lock.library = "shedlock";
        QVERIFY(!policy->ruleFor(lock));
        for (const QByteArray &bad : { QByteArray("rules: []\n"),
                 QByteArray("rules:\n  - kind: nosuch\n    min_age: 1h\n"
                            "    verdict_for: 1m\n"),
                 QByteArray("rules:\n  - min_age: soon\n    verdict_for: 1m\n"), QByteArray("[unclosed") }) {
            error.clear();
            QVERIFY2(!ReapPolicy::parse(bad, QStringLiteral("f"), &error), bad.constData());
            QVERIFY2(!error.isEmpty(), bad.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestReap)
#include "tst_reap.moc"
