// What every lock layout must do, one data row per way of taking a lock (LockLayouts::modes()): a new layout gets
// these tests by being listed in the registry. Each row acquires through the lock client, finds the lock among keys
// that are no locks, releases, wakes a waiter, keeps a force release to its guard, renews and reports a lost hold,
// refuses everything in read-only mode, and lockscope-cli's release and force release of it are audited in the one
// outcome vocabulary.
#include "clirun.h"
#include "kinds/locklayout.h"
#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "kinds/lockscanner.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
AcquireRequest request(const QByteArray &name, LockMode kind, const QByteArray &token, qint64 waitMs = 0)
{
    AcquireRequest r;
    r.name = name;
    r.kind = kind;
    r.token = token;
    // Far longer than any wait below: a waiter that gets the lock got it from a wake-up, not from an expiry.
    r.leaseMs = 120000;
    r.waitMs = waitMs;
    return r;
}

// The mode a waiter must take to be kept out by a hold of mode: itself, or the layout's first exclusive one.
AcquireMode contender(const AcquireMode &mode)
{
    if (!mode.shared)
        return mode;
    for (const AcquireMode &m : LockLayouts::forMode(mode.kind).modes())
        if (!m.shared)
            return m;
    return mode;
}
} // namespace

class TestConformance : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    ConnectionOptions m_options;
    AcquireMode m_mode {};

    // Every lock the scanner reports under prefix, by name.
    QMap<QByteArray, LockInfo> scan(const QByteArray &prefix)
    {
        RedisConnection connection(m_options);
        LockScanner scanner(&connection, { prefix + "*", 50, true, false, StringLockPatterns({ prefix + "*" }) });
        QMap<QByteArray, LockInfo> found;
        QObject::connect(&scanner, &LockScanner::locksFound, [&](const QList<LockInfo> &locks) {
            for (const LockInfo &l : locks)
                found.insert(l.name, l);
        });
        QSignalSpy finished(&scanner, &LockScanner::finished);
        scanner.start();
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000); }();
        return found;
    }

    // The audit log's records for name, in order.
    static QList<QJsonObject> audited(const QTemporaryDir &dir, const QByteArray &name)
    {
        QFile f(dir.filePath(QStringLiteral("audit.log")));
        QList<QJsonObject> records;
        if (f.open(QIODevice::ReadOnly))
            for (const QByteArray &line : f.readAll().split('\n'))
                if (const QJsonObject o = QJsonDocument::fromJson(line).object();
                    o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name))
                    records << o;
        return records;
    }

    void rowMode()
    {
        QFETCH(int, kind);
        m_mode = LockLayouts::mode(LockMode(kind));
    }

    void modes()
    {
        QTest::addColumn<int>("kind");
        for (const AcquireMode &mode : LockLayouts::modes())
            QTest::newRow(mode.id) << int(mode.kind);
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        m_options = ConnectionOptions::fromUrl(m_server.url());
        // Keys that are no locks, under the prefix every row scans: none may be reported.
        RawRedis raw(m_server.port());
        raw.command({ "SET", "conf:noise:text", "hello" });
        raw.command({ "SET", "conf:noise:counter", "5" });
        raw.command({ "RPUSH", "conf:noise:list", "a" });
        raw.command({ "HSET", "conf:noise:user", "name", "ada", "email", "ada@example.com" });
        raw.command({ "SADD", "conf:noise:set", "a" });
    }

    // Discovery walks each cursor the layouts ask for once: Redisson's layouts share the one over lock hashes, the
    // string layout has one for all its patterns (one walk per Redis type, however many patterns), the sorted-set
    // layouts one between them, the fair layout one over its queue keys.
    void scanCursorsAreTheLayoutsOwnEachOnce()
    {
        const DiscoveryScope scope { "app:*", StringLockPatterns({ "lock:*", "mutex:*" }) };
        const QList<ScanCursor> cursors = LockLayouts::scanCursors(scope);
        const auto count = [&cursors](ScanCursor::Read read) {
            return std::count_if(
                cursors.cbegin(), cursors.cend(), [read](const ScanCursor &c) { return c.read == read; });
        };
        QCOMPARE(count(ScanCursor::Read::Hash), 1);
        QVERIFY(cursors.contains(ScanCursor { "app:*", "hash", ScanCursor::Read::Hash }));
        QCOMPARE(count(ScanCursor::Read::String), 1);
        QVERIFY(cursors.contains(ScanCursor { "app:*", "string", ScanCursor::Read::String, { "lock:*", "mutex:*" } }));
        QCOMPARE(count(ScanCursor::Read::AuxKeys), 1);
        // The sorted-set layouts share one walk over sorted sets: redis-semaphore's fixed prefix, and Symfony's names
        // once declared.
        QCOMPARE(count(ScanCursor::Read::SortedSet), 1);
        QVERIFY(cursors.contains(ScanCursor { "app:*", "zset", ScanCursor::Read::SortedSet, { "semaphore:*" } }));
        QCOMPARE(cursors.size(), 4);
        StringLockPatterns declared({ "lock:*" });
        declared.declare("symfony", "locks:pdf:*");
        declared.declare("redis-semaphore", "pool:*");
        const QList<ScanCursor> withDeclared = LockLayouts::scanCursors({ "*", declared });
        QVERIFY(withDeclared.contains(
            ScanCursor { "*", "zset", ScanCursor::Read::SortedSet, { "semaphore:*", "pool:*", "locks:pdf:*" } }));
        QCOMPARE(withDeclared.size(), 4);
        // One pattern is SCAN's own MATCH: the server filters by name.
        QVERIFY(LockLayouts::scanCursors({ "*", StringLockPatterns({ "job:*" }) })
                    .contains(ScanCursor { "job:*", "string", ScanCursor::Read::String }));
        // No string lock patterns: no string cursor, and every string is data.
        QCOMPARE(LockLayouts::scanCursors({ "*", StringLockPatterns() }).size(), 3);
    }

    // Every layout of the registry is recognised from its keys as its own library leaves them, not only those a
    // LockClient takes: found by one scan among the others' locks and the noise, with its kind and the evidence for
    // it. A layout added to the registry without a row here fails this test.
    void everyLayoutIsRecognisedFromItsKeys()
    {
        RawRedis raw(m_server.port());
        RawRedis latchWaiter(m_server.port());
        const QByteArray p = "recog:" + uniqueKey("r") + ":";
        const QByteArray owner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
        const QByteArray later = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000);
        const QByteArray digest = "uniquejobs:" + QCryptographicHash::hash(p, QCryptographicHash::Md5).toHex();
        const auto hold = [&](const QByteArray &name, const QByteArray &field) {
            raw.command({ "HSET", name, field, "1" });
            raw.command({ "PEXPIRE", name, "600000" });
        };
        QHash<QByteArray, QByteArray> names; // layout id: the name of its lock
        names.insert("reentrant", p + "reentrant");
        hold(p + "reentrant", owner);
        names.insert("fenced", p + "fenced");
        hold(p + "fenced", owner);
        raw.command({ "SET", LockNames::fencingToken(p + "fenced"), "7" });
        names.insert("fair", p + "fair");
        hold(p + "fair", owner);
        raw.command({ "RPUSH", LockNames::fairQueue(p + "fair"), "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42" });
        raw.command({ "ZADD", LockNames::fairTimeouts(p + "fair"), later, "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42" });
        names.insert("readwrite", p + "readwrite");
        raw.command({ "HSET", p + "readwrite", "mode", "write", owner + ":write", "1" });
        raw.command({ "PEXPIRE", p + "readwrite", "600000" });
        names.insert("string", p + "string:job");
        raw.command({ "SET", p + "string:job", "a1b2c3d4e5f6a7b8c9d0", "PX", "600000" });
        // Redisson's counters are integers under names declared as Redisson's; their keys and listeners tell them
        // apart.
        names.insert("semaphore", p + "counter:sem");
        raw.command({ "SET", p + "counter:sem", "3" });
        names.insert("expirable-semaphore", p + "counter:expirable");
        raw.command({ "SET", p + "counter:expirable", "2" });
        raw.command({ "ZADD", "{" + p + "counter:expirable}:timeout", later, "0123456789abcdef0123456789abcdef" });
        names.insert("count-down-latch", p + "counter:latch");
        raw.command({ "SET", p + "counter:latch", "3" });
        latchWaiter.append({ "SUBSCRIBE", "redisson_countdownlatch__channel__{" + p + "counter:latch}" });
        QCOMPARE(latchWaiter.readReply(5000).at(0).bytes(), QByteArray("subscribe"));
        // redis-semaphore's permits under its fixed prefix; Symfony's store under a declared name.
        names.insert("permit-set", "semaphore:" + p + "pool");
        raw.command({ "ZADD", "semaphore:" + p + "pool", QByteArray::number(QDateTime::currentMSecsSinceEpoch()),
            "3b241101-e2bb-4255-8caf-4136c566a962" });
        raw.command({ "PEXPIRE", "semaphore:" + p + "pool", "600000" });
        names.insert("token-set", p + "symfony:pdf");
        raw.command(
            { "ZADD", p + "symfony:pdf", later, "q0VxZ0lYb2d1cW5kSzZ4cUhGbE9qM2JzU0FtN2J4eU0=", later, "__write__" });
        raw.command({ "PEXPIREAT", p + "symfony:pdf", later });
        // sidekiq-unique-jobs: the digest locked by a job.
        names.insert("unique-job", digest + ":LOCKED");
        raw.command({ "ZADD", "uniquejobs:digests", "1764000000.5", digest });
        raw.command({ "HSET", digest + ":LOCKED", "0123456789abcdef01234567", "1764000000.123456" }); // a 24-hex jid
        raw.command({ "PEXPIRE", digest + ":LOCKED", "600000" });

        QStringList missing;
        for (const LockLayout *layout : LockLayouts::all())
            if (!names.contains(layout->id()))
                missing << QString::fromLatin1(layout->id());
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("layouts without a row: %1").arg(missing.join(u", "))));

        StringLockPatterns patterns({ p + "string:*" });
        patterns.declare("redisson", p + "counter:*");
        patterns.declare("symfony", p + "symfony:*");
        RedisConnection connection(m_options);
        LockScanner::Options options;
        options.stringPatterns = patterns;
        LockScanner scanner(&connection, options);
        QMap<QByteArray, LockInfo> found;
        QObject::connect(&scanner, &LockScanner::locksFound, [&](const QList<LockInfo> &locks) {
            for (const LockInfo &l : locks)
                found.insert(l.name, l);
        });
        QSignalSpy finished(&scanner, &LockScanner::finished);
        scanner.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        for (const LockLayout *layout : LockLayouts::all()) {
            const QByteArray name = names.value(layout->id());
            QVERIFY2(found.contains(name),
                qPrintable(QStringLiteral("%1 (%2) was not found")
                               .arg(QString::fromUtf8(name), QString::fromLatin1(layout->id()))));
            const LockInfo &info = found.value(name);
            QVERIFY2(info.kind == layout->kind(),
                qPrintable(QStringLiteral("%1: %2, not %3")
                               .arg(QString::fromUtf8(name), QString::fromLatin1(LockInfo::kindName(info.kind)),
                                   QString::fromLatin1(layout->id()))));
            QVERIFY2(!info.evidence.isEmpty(), layout->id());
        }
        for (auto it = found.cbegin(); it != found.cend(); ++it)
            QVERIFY2(!it.key().startsWith("conf:noise:"), it.key().constData());
    }

    void registryCoversEveryMode_data() { modes(); }
    void registryCoversEveryMode()
    {
        QFETCH(int, kind);
        const AcquireMode mode = LockLayouts::mode(LockMode(kind));
        const LockLayout &layout = LockLayouts::forMode(mode.kind);
        QVERIFY(layout.modes().size() >= 1);
        QCOMPARE(LockLayouts::forKind(layout.kind()), &layout);
        AcquireMode byId {};
        QVERIFY(LockLayouts::modeById(QString::fromLatin1(mode.id), &byId));
        QCOMPARE(int(byId.kind), kind);
        QVERIFY(!LockLayouts::kindText(layout.kind()).isEmpty());
        // A layout that says it wakes waiters names where they listen, and one that does not names nothing.
        QCOMPARE(!layout.lockActions()->waitChannel("n", "o:1").isEmpty(), layout.capabilities().wakeChannel);
        QCOMPARE(!layout.recogniser().releaseChannel("n").isEmpty(), layout.capabilities().wakeChannel);
    }

    // The roles a layout has follow from what it does: a layout something is taken or released as has lock actions
    // (and one with none refuses a release in its own words); a layout that allows a counter's action runs it, or
    // leaves it to the layout whose own action it is. Nothing but its role answers for it.
    void everyLayoutHasTheRolesItsActionsNeed()
    {
        for (const LockLayout *layout : LockLayouts::all()) {
            const QByteArray id = layout->id();
            QCOMPARE(layout->lockActions() != nullptr, !layout->actionModes().isEmpty());
            QCOMPARE(layout->allows(LockAction::Release), layout->lockActions() != nullptr);
            if (!layout->lockActions()) {
                QVERIFY2(!layout->refusal(LockAction::Release, "n").isEmpty(), id.constData());
                QVERIFY2(!layout->refusal(LockAction::ForceRelease, "n").isEmpty(), id.constData());
            }
            for (const LockAction action :
                { LockAction::AddPermits, LockAction::ReleasePermit, LockAction::OpenLatch }) {
                if (!layout->allows(action))
                    continue;
                QVERIFY2(layout->counterWrites(), id.constData());
                CounterRequest request;
                request.action = action;
                request.name = "n";
                const std::optional<CounterCall> call = LockLayouts::counterCall(request, "PUBLISH");
                QVERIFY2(call && call->script.script && !call->channel.isEmpty(), id.constData());
            }
            const LockCapabilities caps = layout->capabilities();
            QCOMPARE(!layout->recogniser().releaseChannel("n").isEmpty(), caps.wakeChannel);
            // A release that tells waiters is no plain delete.
            QVERIFY2(!(caps.releaseOnlyDeletes && caps.wakeChannel), id.constData());
        }
    }

    void foundAmongNoiseAndClassified_data() { modes(); }
    void foundAmongNoiseAndClassified()
    {
        rowMode();
        const LockLayout &layout = LockLayouts::forMode(m_mode.kind);
        LockClient holder(m_options), waiter(m_options);
        const QByteArray name = "conf:" + uniqueKey(m_mode.id);
        const AcquireResult held = acquire(holder, request(name, m_mode.kind, "1"));
        QVERIFY2(held.acquired, qPrintable(held.error.toString()));
        // A waiter makes a queue where the layout has one: an idle fair lock looks like any reentrant lock.
        std::optional<AcquireResult> waited;
        const AcquireMode other = contender(m_mode);
        waiter.acquire(request(name, other.kind, "2", -1), [&](const AcquireResult &r) { waited = r; });
        QTRY_VERIFY_WITH_TIMEOUT(scan("conf:").value(name).kind == layout.kind(), 20000);

        const QMap<QByteArray, LockInfo> found = scan("conf:");
        const LockInfo info = found.value(name);
        QVERIFY2(!info.evidence.isEmpty(), "a classification says why");
        QVERIFY(info.confidence != LockInfo::Confidence::Low);
        QCOMPARE(info.holders.size(), 1);
        QCOMPARE(info.holders.first().owner, held.owner);
        for (auto it = found.cbegin(); it != found.cend(); ++it)
            QVERIFY2(!it.key().startsWith("conf:noise:"), it.key().constData());

        waiter.cancelAcquire(name, layout.lockActions()->ownerField(other.kind, waiter.ownerField("2")));
        QTRY_VERIFY(waited.has_value());
        QVERIFY(!waited->acquired);
    }

    void reentryAndRelease_data() { modes(); }
    void reentryAndRelease()
    {
        rowMode();
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = "conf:" + uniqueKey(m_mode.id);
        const AcquireResult first = acquire(client, request(name, m_mode.kind, "1"));
        QVERIFY2(first.acquired, qPrintable(first.error.toString()));
        if (LockLayouts::forMode(m_mode.kind).capabilities().reentrant) {
            QVERIFY(acquire(client, request(name, m_mode.kind, "1")).acquired);
            QCOMPARE(release(client, name, first.owner, m_mode.kind).outcome, ReleaseResult::Outcome::StillHeld);
        }
        QCOMPARE(release(client, name, first.owner, m_mode.kind).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.command({ "EXISTS", name }).toInteger(), 0);
        // A second release changes nothing. (Most layouts answer not held, as Redisson's IllegalMonitorStateException
        // says; a fair lock answers released, as Redisson's fair unlock does for a lock that is gone, waking the head.)
        QVERIFY(release(client, name, first.owner, m_mode.kind).outcome != ReleaseResult::Outcome::StillHeld);
        QCOMPARE(raw.command({ "EXISTS", name }).toInteger(), 0);
    }

    void releaseWakesAWaiter_data() { modes(); }
    void releaseWakesAWaiter()
    {
        rowMode();
        LockClient holder(m_options), waiter(m_options);
        const QByteArray name = "conf:" + uniqueKey(m_mode.id);
        const AcquireResult held = acquire(holder, request(name, m_mode.kind, "1"));
        QVERIFY(held.acquired);
        std::optional<AcquireResult> waited;
        waiter.acquire(request(name, contender(m_mode).kind, "2", -1), [&](const AcquireResult &r) { waited = r; });
        QTRY_VERIFY(!scan("conf:").value(name).holders.isEmpty());
        QVERIFY(!waited.has_value());
        QCOMPARE(release(holder, name, held.owner, m_mode.kind).outcome, ReleaseResult::Outcome::Released);
        // Well before the holder's two-minute lease could have run out: the release woke it.
        QTRY_VERIFY_WITH_TIMEOUT(waited.has_value(), 30000);
        QVERIFY2(waited->acquired, qPrintable(waited->error.toString()));
    }

    void forceReleaseKeepsToItsGuard_data() { modes(); }
    void forceReleaseKeepsToItsGuard()
    {
        rowMode();
        LockClient holder(m_options), waiter(m_options), support(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = "conf:" + uniqueKey(m_mode.id);
        const AcquireResult held = acquire(holder, request(name, m_mode.kind, "1"));
        QVERIFY(held.acquired);
        std::optional<AcquireResult> waited;
        waiter.acquire(request(name, contender(m_mode).kind, "2", -1), [&](const AcquireResult &r) { waited = r; });

        // What the person saw is no longer so: nothing changes, and the holders now are told.
        const ForceReleaseResult refused = await<ForceReleaseResult>([&](auto done) {
            support.forceRelease(
                name, ForceGuard::exact({ "00000000-0000-0000-0000-000000000000:9" }), done, m_mode.kind);
        });
        QVERIFY2(!refused.error.isError(), qPrintable(refused.error.toString()));
        QVERIFY(refused.guardFailed);
        QVERIFY(!refused.deleted);
        QVERIFY(refused.holdersNow.contains(held.owner));
        QCOMPARE(raw.command({ "EXISTS", name }).toInteger(), 1);

        const ForceReleaseResult done = await<ForceReleaseResult>([&](auto finished) {
            support.forceRelease(name, ForceGuard::exact({ held.owner }), finished, m_mode.kind);
        });
        QVERIFY2(done.deleted, qPrintable(done.error.toString()));
        QTRY_VERIFY_WITH_TIMEOUT(waited.has_value(), 30000);
        QVERIFY2(waited->acquired, qPrintable(waited->error.toString()));
    }

    void renewalAndLoss_data() { modes(); }
    void renewalAndLoss()
    {
        rowMode();
        LockClientOptions quick;
        // Renewed every 3 s: a renewal would have to be 6 s late for the hold to be lost before the test ends it.
        quick.watchdogTimeoutMs = 9000;
        LockClient client(m_options, quick);
        RawRedis raw(m_server.port());
        QSignalSpy renewed(&client, &LockClient::holdRenewed);
        QSignalSpy lost(&client, &LockClient::holdLost);
        const QByteArray name = "conf:" + uniqueKey(m_mode.id);
        AcquireRequest r = request(name, m_mode.kind, "1");
        r.leaseMs = -1; // the watchdog's
        const AcquireResult held = acquire(client, r);
        QVERIFY(held.acquired);
        QVERIFY(held.watchdog);
        QTRY_VERIFY_WITH_TIMEOUT(!renewed.isEmpty(), 20000);
        QCOMPARE(renewed.first().first().value<HoldEvent>().owner, held.owner);
        QVERIFY(lost.isEmpty());
        raw.command({ "DEL", name });
        QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 20000);
        QCOMPARE(lost.first().first().value<HoldEvent>().name, name);
    }

    void readOnlyRefusesAndWritesNothing_data() { modes(); }
    void readOnlyRefusesAndWritesNothing()
    {
        rowMode();
        ConnectionOptions readOnly = m_options;
        readOnly.readOnly = true;
        LockClient client(readOnly);
        RawRedis raw(m_server.port());
        const QByteArray name = "conf:" + uniqueKey(m_mode.id);
        const AcquireResult a = acquire(client, request(name, m_mode.kind, "1"));
        QCOMPARE(a.error.kind(), RedisError::Kind::ReadOnly);
        QVERIFY(!a.acquired);
        QCOMPARE(release(client, name, a.owner, m_mode.kind).error.kind(), RedisError::Kind::ReadOnly);
        const ForceReleaseResult f = await<ForceReleaseResult>(
            [&](auto done) { client.forceRelease(name, ForceGuard::exact({ a.owner }), done, m_mode.kind); });
        QCOMPARE(f.error.kind(), RedisError::Kind::ReadOnly);
        QCOMPARE(raw.command({ "KEYS", "*" + name + "*" }).size(), 0);
    }

    void cliActionsAuditedInOneVocabulary_data() { modes(); }
    void cliActionsAuditedInOneVocabulary()
    {
        rowMode();
        QTemporaryDir dir;
        LockClient client(m_options);
        const QByteArray name = "lock:" + uniqueKey(m_mode.id);
        const LockLayout &layout = LockLayouts::forMode(m_mode.kind);
        // A layout whose holders are bare tokens names its kind in the record; Redisson's, whose holders name their
        // client, do not.
        const QString kind = layout.capabilities().tokenHolder ? QString::fromLatin1(layout.id()) : QString();
        const QStringList url { QStringLiteral("--url"), m_server.url() };

        AcquireResult held = acquire(client, request(name, m_mode.kind, "1"));
        QVERIFY2(held.acquired, qPrintable(held.error.toString()));
        CliRun r = runCli(QStringList { QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                              QString::fromUtf8(held.owner) }
                + url,
            dir);
        CLI_EXIT(r, CliExit::Done);
        QList<QJsonObject> records = audited(dir, name);
        QCOMPARE(records.size(), 1);
        QCOMPARE(records.at(0).value(QStringLiteral("action")).toString(), QStringLiteral("release"));
        QCOMPARE(records.at(0).value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));
        QCOMPARE(records.at(0).value(QStringLiteral("kind")).toString(), kind);

        held = acquire(client, request(name, m_mode.kind, "1"));
        QVERIFY(held.acquired);
        r = runCli(
            QStringList { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") } + url,
            dir);
        CLI_EXIT(r, CliExit::Done);
        records = audited(dir, name);
        QCOMPARE(records.size(), 2);
        QCOMPARE(records.at(1).value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(records.at(1).value(QStringLiteral("outcome")).toString(), QStringLiteral("deleted"));
        QCOMPARE(records.at(1).value(QStringLiteral("kind")).toString(), kind);
        const QJsonObject before = records.at(1).value(QStringLiteral("holders_before")).toArray().at(0).toObject();
        QCOMPARE(before.value(QStringLiteral("owner")).toString(), QString::fromUtf8(held.owner));

        // Nothing left: the next force release finds nothing to delete and says so, changing nothing.
        r = runCli(
            QStringList { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") } + url,
            dir);
        CLI_REFUSED(r, CliExit::NotDone, "is not locked: nothing to release");
        QCOMPARE(audited(dir, name).size(), 2); // a lock found not locked leaves no record
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
