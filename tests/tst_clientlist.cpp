// Who a connection is, as the server says it, and what its commands say of the locks it holds: CLIENT LIST parsed from
// a real server's listing (several connections, one named) and from lines as other versions write them (7.2's lib-name
// and lib-ver, keys this version does not know, fields missing); MONITOR lines parsed from what a real server sent for
// arguments that need quoting, for a script's own calls and for a client on a Unix socket, and from lines written by
// hand (IPv6, cut short, bad escapes); the trace's rules that turn lock commands into owner ids, tokens and retriers,
// line by line; and the file a trace's findings are kept in.
#include "clients/cliententry.h"
#include "clients/tracereader.h"
#include "clients/tracestore.h"
#include "rawredis.h"
#include "redis/monitorline.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QFile>
#include <QLocalSocket>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
using Identity = TraceFindings::Sighting::Identity;

const QByteArray kOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kClient = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac";

// A MONITOR line as the server writes it (arguments quoted; only '"' and '\\' need it here).
QByteArray line(double seconds, const QByteArray &client, const QList<QByteArray> &argv)
{
    QByteArray out = QByteArray::number(seconds, 'f', 6) + " [0 " + client + "]";
    for (const QByteArray &arg : argv) {
        QByteArray quoted;
        for (const char c : arg) {
            if (c == '"' || c == '\\')
                quoted += '\\';
            quoted += c;
        }
        out += " \"" + quoted + '"';
    }
    return out;
}

const TraceFindings::Sighting *sighting(
    const TraceFindings &f, Identity kind, const QByteArray &identity, const QByteArray &addr = {})
{
    for (const TraceFindings::Sighting &s : f.sightings)
        if (s.kind == kind && s.identity == identity && (addr.isEmpty() || s.addr == addr))
            return &s;
    return nullptr;
}

const TraceFindings::Retrier *retrier(const TraceFindings &f, const QByteArray &key, const QByteArray &identity)
{
    for (const TraceFindings::Retrier &r : f.retriers)
        if (r.key == key && r.identity == identity)
            return &r;
    return nullptr;
}

// A short path: a Unix socket's name must fit in 108 bytes.
QTemporaryDir &socketDir()
{
    static QTemporaryDir dir(QStringLiteral("/tmp/lsclXXXXXX"));
    return dir;
}

QString socketPath()
{
    return socketDir().filePath(QStringLiteral("redis.sock"));
}

const ClientEntry *byId(const QList<ClientEntry> &entries, qint64 id)
{
    for (const ClientEntry &e : entries)
        if (e.id == id)
            return &e;
    return nullptr;
}
} // namespace

class TestClientList : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--unixsocket"), socketPath(), QStringLiteral("--unixsocketperm"), QStringLiteral("700") } } };
    QTemporaryDir m_cache; // XDG_CACHE_HOME: where TraceStore keeps findings

    // The next MONITOR line of monitor that is not one of the test's own pings.
    static MonitorLine nextLine(RawRedis &monitor)
    {
        const QDeadlineTimer deadline(30000);
        while (!deadline.hasExpired()) {
            const RedisValue v = monitor.readReply(1000);
            MonitorLine line;
            if (v.isStatus() && parseMonitorLine(v.bytes(), &line))
                return line;
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        qputenv("XDG_CACHE_HOME", m_cache.path().toUtf8()); // before anything asks QStandardPaths
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    // The server's own listing: every connection of the test by its id, at its address, the named one with its name.
    void realListing()
    {
        RawRedis a(m_server.port()), b(m_server.port()), named(m_server.port());
        QCOMPARE(named.command({ "CLIENT", "SETNAME", "orders-service-7" }).bytes(), QByteArray("OK"));
        b.command({ "SELECT", "3" });
        const qint64 idA = a.command({ "CLIENT", "ID" }).toInteger();
        const qint64 idB = b.command({ "CLIENT", "ID" }).toInteger();
        const qint64 idNamed = named.command({ "CLIENT", "ID" }).toInteger();
        const QByteArray listing = a.command({ "CLIENT", "LIST" }).bytes();
        const QList<ClientEntry> entries = parseClientList(listing, "127.0.0.1:7000");
        QVERIFY2(entries.size() >= 3, listing.constData());
        for (const qint64 id : { idA, idB, idNamed }) {
            const ClientEntry *e = byId(entries, id);
            QVERIFY2(e, qPrintable(QStringLiteral("id %1 not in %2").arg(id).arg(QString::fromUtf8(listing))));
            QVERIFY2(e->addr.startsWith("127.0.0.1:"), e->addr.constData());
            QVERIFY(e->addr.mid(10).toUInt() > 0);
            QCOMPARE(e->laddr, QByteArray("127.0.0.1:") + QByteArray::number(m_server.port()));
            QCOMPARE(e->user, QByteArray("default"));
            QVERIFY(e->ageS >= 0 && e->idleS >= 0);
            QCOMPARE(e->node, QByteArray("127.0.0.1:7000"));
            QVERIFY(e->sub == 0 && e->psub == 0);
        }
        QCOMPARE(byId(entries, idNamed)->name, QByteArray("orders-service-7"));
        QCOMPARE(byId(entries, idA)->name, QByteArray()); // "name=": none
        QCOMPARE(byId(entries, idA)->cmd, QByteArray("client|list"));
        QCOMPARE(byId(entries, idB)->db, 3);
        QCOMPARE(byId(entries, idA)->db, 0);
        // Every address is its own: no two entries for one connection.
        QSet<QByteArray> addrs;
        for (const ClientEntry &e : entries)
            addrs.insert(e.addr);
        QCOMPARE(addrs.size(), entries.size());
    }

    void craftedLines_data()
    {
        QTest::addColumn<QByteArray>("listing");
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("id");
        QTest::addColumn<QByteArray>("addr");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("lib");
        QTest::addColumn<qint64>("age");
        QTest::addColumn<qint64>("idle");
        // As Redis 7.2 prints it, with CLIENT SETINFO's library.
        QTest::newRow("7.2") << QByteArray("id=3 addr=10.0.3.17:53422 laddr=10.0.3.2:6379 fd=8 name=orders-service-7 "
                                           "age=12 idle=0 flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf=26 "
                                           "qbuf-free=20448 argv-mem=10 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0 "
                                           "tot-mem=22298 events=r cmd=client|list user=default redir=-1 resp=2 "
                                           "lib-name=redis-py lib-ver=5.0.1\n")
                             << 1 << qint64(3) << QByteArray("10.0.3.17:53422") << QByteArray("orders-service-7")
                             << QByteArray("redis-py 5.0.1") << qint64(12) << qint64(0);
        QTest::newRow("lib name only") << QByteArray("id=4 addr=10.0.3.18:1 name= lib-name=go-redis lib-ver= age=1 "
                                                     "idle=1\n")
                                       << 1 << qint64(4) << QByteArray("10.0.3.18:1") << QByteArray()
                                       << QByteArray("go-redis") << qint64(1) << qint64(1);
        // Keys in another order, keys no version has yet, CRLF, an empty line, a word without '='.
        QTest::newRow("any order, unknown keys")
            << QByteArray("\r\nfuture=thing idle=7 name=w addr=[::1]:6000 x=y=z id=9 junk age=70\r\n\n") << 1
            << qint64(9) << QByteArray("[::1]:6000") << QByteArray("w") << QByteArray() << qint64(70) << qint64(7);
        // Lines without an id or an address are skipped, never guessed at; the good line after them is read.
        QTest::newRow("missing fields") << QByteArray(
            "addr=1.2.3.4:5 name=no-id\nid=5 name=no-addr\nid=x addr=1.1.1.1:1\n"
            "id=6 addr=unix:/run/redis.sock:0 name=\n")
                                        << 1 << qint64(6) << QByteArray("unix:/run/redis.sock:0") << QByteArray()
                                        << QByteArray() << qint64(-1) << qint64(-1);
        QTest::newRow("nothing") << QByteArray("") << 0 << qint64(0) << QByteArray() << QByteArray() << QByteArray()
                                 << qint64(0) << qint64(0);
    }

    void craftedLines()
    {
        QFETCH(QByteArray, listing);
        QFETCH(int, count);
        const QList<ClientEntry> entries = parseClientList(listing);
        QCOMPARE(entries.size(), count);
        if (count == 0)
            return;
        const ClientEntry &e = entries.first();
        QTEST(e.id, "id");
        QTEST(e.addr, "addr");
        QTEST(e.name, "name");
        QTEST(e.lib(), "lib");
        QTEST(e.ageS, "age");
        QTEST(e.idleS, "idle");
        QVERIFY(e.node.isEmpty());
    }

    // Arguments that need quoting, as the server quoted them: read back to the very bytes sent.
    void realMonitorLines()
    {
        RawRedis monitor(m_server.port()), client(m_server.port());
        monitor.append({ "MONITOR" });
        QCOMPARE(monitor.readReply(5000).bytes(), QByteArray("OK"));
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        client.command({ "SELECT", "2" });
        (void)nextLine(monitor); // the SELECT
        const QByteArray key = QByteArray("lock:\x00 \"quoted\"\n", 17) + "\\back\xff\x01 \t\r\a\b";
        const QList<QByteArray> sent { "SET", key, "tok en", "NX", "PX", "30000" };
        client.command(sent);
        const MonitorLine line = nextLine(monitor);
        QCOMPARE(line.argv, sent);
        QCOMPARE(line.db, 2);
        QVERIFY2(line.client.startsWith("127.0.0.1:"), line.client.constData());
        QVERIFY(!line.fromScript());
        // The server's clock, in microseconds: within the test's own run (the same machine's clock).
        QVERIFY(line.timestampUs / 1000 >= before - 1000);
        QVERIFY(line.timestampUs / 1000 <= QDateTime::currentMSecsSinceEpoch() + 1000);

        // A script, then the calls it made, from "lua".
        client.command({ "EVAL", "return redis.call('get', KEYS[1])", "1", key });
        const MonitorLine eval = nextLine(monitor);
        QCOMPARE(eval.argv.value(0), QByteArray("EVAL"));
        QCOMPARE(eval.argv.value(3), key);
        const MonitorLine call = nextLine(monitor);
        QVERIFY(call.fromScript());
        QCOMPARE(call.client, QByteArray("lua"));
        QCOMPARE(call.argv, (QList<QByteArray> { "get", key }));
        client.command({ "DEL", key });
    }

    // A client on the Unix socket: "unix:<path>" is its address.
    void unixSocketLine()
    {
        RawRedis monitor(m_server.port());
        monitor.append({ "MONITOR" });
        QCOMPARE(monitor.readReply(5000).bytes(), QByteArray("OK"));
        QLocalSocket local;
        local.connectToServer(socketPath());
        QVERIFY2(local.waitForConnected(5000), qPrintable(local.errorString()));
        local.write("*2\r\n$4\r\nECHO\r\n$7\r\nvia uds\r\n");
        QVERIFY(local.waitForBytesWritten(5000));
        const MonitorLine line = nextLine(monitor);
        QCOMPARE(line.argv, (QList<QByteArray> { "ECHO", "via uds" }));
        QVERIFY2(line.client.startsWith("unix:" + socketPath().toUtf8()), line.client.constData());
    }

    void craftedMonitorLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("parses");
        QTest::addColumn<QByteArray>("client");
        QTest::addColumn<QList<QByteArray>>("argv");
        QTest::addColumn<qint64>("timestampUs");
        QTest::addColumn<int>("db");
        QTest::newRow("escapes") << QByteArray(
            "1700000000.123456 [0 127.0.0.1:5555] \"SET\" \"a\\x00b\" \"q\\\"\\\\\\n "
            "x\"") << true << QByteArray("127.0.0.1:5555")
                                 << QList<QByteArray> { "SET", QByteArray("a\0b", 3), "q\"\\\n x" }
                                 << qint64(1700000000123456) << 0;
        QTest::newRow("lua") << QByteArray("1700000000.5 [3 lua] \"hincrby\" \"k\" \"f\" \"1\"") << true
                             << QByteArray("lua") << QList<QByteArray> { "hincrby", "k", "f", "1" }
                             << qint64(1700000000500000) << 3;
        QTest::newRow("unix") << QByteArray("1700000001.000001 [0 unix:/run/redis/redis.sock] \"PING\"") << true
                              << QByteArray("unix:/run/redis/redis.sock") << QList<QByteArray> { "PING" }
                              << qint64(1700000001000001) << 0;
        // An IPv6 peer's address carries brackets of its own.
        QTest::newRow("ipv6") << QByteArray("1700000000.000100 [15 [::1]:6001] \"GET\" \"]\" \"[0 x]\"") << true
                              << QByteArray("[::1]:6001") << QList<QByteArray> { "GET", "]", "[0 x]" }
                              << qint64(1700000000000100) << 15;
        QTest::newRow("empty argument") << QByteArray("1.1 [0 c] \"ECHO\" \"\"") << true << QByteArray("c")
                                        << QList<QByteArray> { "ECHO", "" } << qint64(1100000) << 0;
        // A time no server sends (microseconds past 64 bits, as fuzz_replies found): the line still reads, timeless.
        QTest::newRow("time out of range") << QByteArray("170000000655350.1 [0 a:1] \"PING\"") << true
                                           << QByteArray("a:1") << QList<QByteArray> { "PING" } << qint64(0) << 0;
        QTest::newRow("status") << QByteArray("OK") << false << QByteArray() << QList<QByteArray>() << qint64(0) << 0;
        QTest::newRow("no arguments") << QByteArray("1.0 [0 lua]") << false << QByteArray() << QList<QByteArray>()
                                      << qint64(0) << 0;
        QTest::newRow("unterminated") << QByteArray("1.0 [0 a:1] \"GET\" \"k") << false << QByteArray()
                                      << QList<QByteArray>() << qint64(0) << 0;
        QTest::newRow("bad hex") << QByteArray("1.0 [0 a:1] \"X\" \"\\x4\"") << false << QByteArray()
                                 << QList<QByteArray>() << qint64(0) << 0;
        QTest::newRow("hex cut short") << QByteArray("1.0 [0 a:1] \"X\" \"\\x4") << false << QByteArray()
                                       << QList<QByteArray>() << qint64(0) << 0;
    }

    void craftedMonitorLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, parses);
        MonitorLine parsed;
        QCOMPARE(parseMonitorLine(line, &parsed), parses);
        if (!parses)
            return;
        QTEST(parsed.client, "client");
        QTEST(parsed.argv, "argv");
        QTEST(parsed.timestampUs, "timestampUs");
        QTEST(parsed.db, "db");
    }

    // The rules of TraceReader, line by line (the session's own reading, without a server).
    void readerRules()
    {
        TraceReader reader;
        const QByteArray redisson = "127.0.0.1:1001", redsync = "127.0.0.1:1002", other = "127.0.0.1:1003";
        const QByteArray acquire = "if (redis.call('exists', KEYS[1]) == 0) then return nil; end;";
        // Redisson's acquire, run twice (a waiter woken), and its batched renewal of two locks.
        for (const double t : { 10.0, 11.0 })
            reader.read({}, line(t, redisson, { "EVAL", acquire, "1", "orders:42", "30000", kOwner }));
        const QByteArray other1 = "0b5e4a0e-2f55-4c1a-9d7e-3a1f8c2b6d90:7",
                         other2 = "0b5e4a0e-2f55-4c1a-9d7e-3a1f8c2b6d90:8";
        reader.read({}, line(12, other, { "evalsha", "abc", "2", "k1", "k2", "30000", other1, other2 }));
        // redsync polls with SET NX (PX before NX), then a release and an extension, each a one-key script.
        for (const double t : { 20.0, 20.5, 21.0 })
            reader.read({}, line(t, redsync, { "SET", "lock:a", "tokA", "PX", "8000", "nx" }));
        reader.read({}, line(22, redsync, { "EVAL", "return del", "1", "lock:a", "tokB" }));
        reader.read({}, line(23, redsync, { "EVALSHA", "def", "1", "lock:a", "tokC", "8000" }));
        reader.read({}, line(24, redsync, { "SETNX", "lock:b", "tokE" }));
        // What is no identity: a two-key script's strings, a script's own calls, a SET without NX, an oversized value,
        // numkeys that does not fit, and lines that are no MONITOR line at all.
        reader.read({}, line(30, other, { "EVAL", "x", "2", "a", "b", "tokD" }));
        reader.read({}, line(31, "lua", { "set", "lock:c", "tokLua", "NX" }));
        reader.read({}, line(32, other, { "SET", "lock:d", "tokPlain", "PX", "100" }));
        reader.read({}, line(33, other, { "SET", "lock:e", QByteArray(300, 't'), "NX" }));
        reader.read({}, line(34, other, { "EVAL", "x", "5", "a", "tokF" }));
        reader.read({}, line(35, other, { "EVAL", "x", "one", "a", "tokG" }));
        reader.read({}, "OK");
        reader.read({}, "1.0 [0 a:1] \"cut");
        TraceFindings f;
        reader.fill(&f);

        const TraceFindings::Sighting *owner = sighting(f, Identity::Owner, kOwner, redisson);
        QVERIFY(owner);
        QCOMPARE(owner->keys, QList<QByteArray> { "orders:42" });
        QCOMPARE(owner->commands, qint64(2));
        QCOMPARE(owner->firstMs, qint64(10000));
        QCOMPARE(owner->lastMs, qint64(11000));
        QVERIFY(sighting(f, Identity::Client, kClient, redisson));
        QCOMPARE(sighting(f, Identity::Owner, other1, other)->keys, QList<QByteArray> { "k1" });
        QCOMPARE(sighting(f, Identity::Owner, other2, other)->keys, QList<QByteArray> { "k2" });
        for (const QByteArray &token : { "tokA", "tokB", "tokC", "tokE" }) {
            const TraceFindings::Sighting *s = sighting(f, Identity::Token, token, redsync);
            QVERIFY2(s, token);
            QCOMPARE(s->keys.size(), 1);
        }
        QCOMPARE(sighting(f, Identity::Token, "tokA")->commands, qint64(3));
        for (const QByteArray &none : { "tokD", "tokLua", "tokPlain", "tokF", "tokG", "8000", "30000" })
            QVERIFY2(!sighting(f, Identity::Token, none), none);
        QVERIFY(!sighting(f, Identity::Token, QByteArray(300, 't')));
        QVERIFY(!sighting(f, Identity::Token, kOwner)); // an owner field is an owner, not a token

        // Retriers: the SET NX tried three times, the Redisson acquire twice; one attempt is no retry.
        const TraceFindings::Retrier *poll = retrier(f, "lock:a", "tokA");
        QVERIFY(poll);
        QCOMPARE(poll->attempts, qint64(3));
        QCOMPARE(poll->addr, redsync);
        QCOMPARE(poll->perSecond(), 2.0);
        const TraceFindings::Retrier *woken = retrier(f, "orders:42", kOwner);
        QVERIFY(woken);
        QCOMPARE(woken->attempts, qint64(2));
        QVERIFY(!retrier(f, "lock:b", "tokE"));
        QCOMPARE(f.retriers.size(), 2);
        QCOMPARE(f.cost.lines, qint64(17));
        QVERIFY(f.partial.isEmpty());

        // A bounded reader keeps what it can and says that it stopped keeping.
        TraceReader small(2);
        for (int i = 0; i < 5; ++i)
            small.read({}, line(40 + i, other, { "SET", "lock:x", "t" + QByteArray::number(i), "NX" }));
        TraceFindings bounded;
        small.fill(&bounded);
        QCOMPARE(bounded.sightings.size(), 2);
        QCOMPARE(bounded.cost.lines, qint64(5));
        QCOMPARE(bounded.partial.size(), 2);
    }

    // The findings file: the same findings back, bytes and all; owner-only; a broken or stale file gives nothing.
    void storeRoundTrip()
    {
        TraceFindings f;
        f.startedMs = QDateTime::currentMSecsSinceEpoch() - 20000;
        f.endedMs = f.startedMs + 10000; // ten seconds ago
        f.runId = "0123456789abcdef";
        f.nodes = { "127.0.0.1:7000", "127.0.0.1:7001" };
        f.listedNodes = { "127.0.0.1:7001" };
        TraceFindings::Sighting s;
        s.kind = Identity::Token;
        s.identity = QByteArray("t\x00k\xff\\x41 \"\xe4\xb8\xad\"\n", 14);
        s.addr = "10.0.3.17:53422";
        s.node = "127.0.0.1:7000";
        s.keys = { QByteArray("lock:\x01\x80", 7), "orders:42" };
        s.commands = 3;
        s.firstMs = 5;
        s.lastMs = 9;
        f.sightings << s;
        s.kind = Identity::Owner;
        s.identity = kOwner;
        f.sightings << s;
        TraceFindings::Retrier r;
        r.addr = "10.0.3.18:1";
        r.key = "lock:\\x00";
        r.identity = "\x7f";
        r.attempts = 14;
        r.firstMs = 1;
        r.lastMs = 1401;
        f.retriers << r;
        const ClientEntry c
            = parseClientList("id=3 addr=10.0.3.17:53422 laddr=10.0.3.2:6379 name=orders-7 age=12 idle=1 "
                              "flags=N db=2 sub=1 psub=0 ssub=0 cmd=evalsha user=app lib-name=redisson "
                              "lib-ver=3.52.0",
                "127.0.0.1:7001")
                  .value(0);
        f.clients << c;
        f.cost = { 120, 9000, 7, 10000 };
        f.partial = { QStringLiteral("node 127.0.0.1:7002 down (connection refused)") };

        const ConnectionOptions options = ConnectionOptions::fromUrl(QStringLiteral("redis://app@127.0.0.1:7000/2"));
        QString error;
        QVERIFY2(TraceStore::save(options, f, &error), qPrintable(error));
        const QString path = TraceStore::path(options);
        QVERIFY2(path.startsWith(m_cache.path() + QStringLiteral("/lockscope/traces/")), qPrintable(path));
        struct stat st
        {
        };
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0600);

        const std::optional<TraceFindings> back = TraceStore::load(options);
        QVERIFY(back);
        QCOMPARE(back->startedMs, f.startedMs);
        QCOMPARE(back->endedMs, f.endedMs);
        QCOMPARE(back->runId, f.runId);
        QCOMPARE(back->nodes, f.nodes);
        QCOMPARE(back->listedNodes, f.listedNodes);
        QCOMPARE(back->sightings.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const TraceFindings::Sighting &a = f.sightings.at(i), &b = back->sightings.at(i);
            QVERIFY(a.kind == b.kind);
            QCOMPARE(b.identity, a.identity);
            QCOMPARE(b.addr, a.addr);
            QCOMPARE(b.node, a.node);
            QCOMPARE(b.keys, a.keys);
            QCOMPARE(b.commands, a.commands);
            QCOMPARE(b.firstMs, a.firstMs);
            QCOMPARE(b.lastMs, a.lastMs);
        }
        QCOMPARE(back->retriers.size(), 1);
        QCOMPARE(back->retriers.first().key, r.key);
        QCOMPARE(back->retriers.first().identity, r.identity);
        QCOMPARE(back->retriers.first().attempts, r.attempts);
        QCOMPARE(back->retriers.first().perSecond(), r.perSecond());
        QCOMPARE(back->clients.size(), 1);
        const ClientEntry &d = back->clients.first();
        QCOMPARE(d.id, c.id);
        QCOMPARE(d.addr, c.addr);
        QCOMPARE(d.laddr, c.laddr);
        QCOMPARE(d.name, c.name);
        QCOMPARE(d.lib(), QByteArray("redisson 3.52.0"));
        QCOMPARE(d.user, c.user);
        QCOMPARE(d.ageS, c.ageS);
        QCOMPARE(d.idleS, c.idleS);
        QCOMPARE(d.db, 2);
        QCOMPARE(d.sub, 1);
        QCOMPARE(d.cmd, c.cmd);
        QCOMPARE(d.node, c.node);
        QCOMPARE(back->cost.lines, qint64(120));
        QCOMPARE(back->cost.bytes, qint64(9000));
        QCOMPARE(back->cost.serverCpuMs, qint64(7));
        QCOMPARE(back->cost.wallMs, qint64(10000));
        QCOMPARE(back->partial, f.partial);

        // Another server (another database is one) has its own file; a stale trace, or a broken file, gives nothing.
        ConnectionOptions db3 = options;
        db3.db = 3;
        QVERIFY(TraceStore::path(db3) != path);
        QVERIFY(!TraceStore::load(db3));
        QVERIFY(TraceStore::load(options, 60000));
        QVERIFY(!TraceStore::load(options, 5000));
        for (const QByteArray &broken : { QByteArray("{\"lockscope_trace\": 1, \"sightings\": [{\"kind\": \"x\"}]"),
                 QByteArray("not json"), QByteArray("[1,2]"), QByteArray("{\"lockscope_trace\": 99}"), QByteArray() }) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(broken);
            file.close();
            QVERIFY2(!TraceStore::load(options), broken.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestClientList)
#include "tst_clientlist.moc"
