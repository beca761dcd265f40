// list --json writes each lock as text instead of building a QJsonObject for it (issue 18: a million locks). Scripts
// that read the listing must not notice: the text is checked here, byte for byte, against what a QJsonObject of the
// same lock gives, for names and owners that need escaping, every optional field and every counter key.
#include "kinds/lockjson.h"
#include "kinds/locklayouts.h"
#include "redis/bytesformat.h"
#include "redis/jsonwriter.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace LockScope;

namespace {
// The schema as conventions.md gives it, built the way lockscope-cli built it before: the oracle.
QJsonObject reference(const LockInfo &lock, qint64 nowMs)
{
    const auto iso = [](qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs); };
    QJsonArray holders;
    for (const LockHolder &h : lock.holders) {
        QJsonObject o { { QStringLiteral("owner"), jsonText(h.owner) },
            { QStringLiteral("client"), jsonText(h.client) }, { QStringLiteral("thread"), jsonText(h.thread) },
            { QStringLiteral("count"), h.count } };
        if (h.writer)
            o.insert(QStringLiteral("writer"), true);
        if (h.deadReader)
            o.insert(QStringLiteral("dead"), true);
        if (!h.host.isEmpty())
            o.insert(QStringLiteral("host"), jsonText(h.host));
        if (!h.node.isEmpty())
            o.insert(QStringLiteral("node"), jsonText(h.node));
        if (h.pid > 0)
            o.insert(QStringLiteral("pid"), h.pid);
        if (h.sinceMs > 0)
            o.insert(QStringLiteral("since"), iso(h.sinceMs));
        if (h.expiresMs > 0) {
            o.insert(QStringLiteral("expires_at"), iso(h.expiresMs));
            o.insert(QStringLiteral("expired"), h.expiresMs <= nowMs);
        }
        holders.append(o);
    }
    QJsonArray queue;
    for (const auto &[owner, deadline] : lock.queue)
        queue.append(
            QJsonObject { { QStringLiteral("owner"), jsonText(owner) }, { QStringLiteral("deadline_ms"), deadline },
                { QStringLiteral("remaining_ms"), deadline < 0 ? -1 : qMax<qint64>(0, deadline - nowMs) } });
    QJsonObject o {
        { QStringLiteral("name"), jsonText(lock.name) },
        { QStringLiteral("kind"), QString::fromLatin1(LockInfo::kindName(lock.kind)) },
        { QStringLiteral("library"), QString::fromLatin1(lock.library) },
        { QStringLiteral("mode"), lock.mode.isEmpty() ? QJsonValue() : QJsonValue(QString::fromLatin1(lock.mode)) },
        { QStringLiteral("holders"), holders },
        { QStringLiteral("ttl_ms"), lock.ttlMs },
        { QStringLiteral("watchdog"), QStringLiteral("unknown") },
        { QStringLiteral("waiters"), lock.waiters < 0 ? QJsonValue() : QJsonValue(lock.waiters) },
        { QStringLiteral("queue"), queue },
        { QStringLiteral("confidence"), QString::fromLatin1(LockInfo::confidenceName(lock.confidence)) },
        { QStringLiteral("evidence"), QJsonArray::fromStringList(lock.evidence) },
        { QStringLiteral("warnings"), QJsonArray::fromStringList(lock.warnings) },
    };
    if (const char *field = LockLayouts::forRecord(lock.kind).counterField(); field && lock.counter >= 0)
        o.insert(QLatin1String(field), lock.counter);
    return o;
}

LockHolder holder(const QByteArray &owner)
{
    LockHolder h;
    h.owner = owner;
    const qsizetype colon = owner.lastIndexOf(':');
    h.client = owner.left(qMax<qsizetype>(colon, 0));
    h.thread = owner.mid(colon + 1);
    h.count = 1;
    return h;
}
} // namespace

class TestLockJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameBytesAsQJsonDocument_data()
    {
        QTest::addColumn<LockInfo>("lock");
        const qint64 now = 1764000000000;
        LockInfo plain;
        plain.name = "orders:42";
        plain.kind = LockInfo::Kind::Reentrant;
        plain.library = "redisson";
        plain.holders << holder("6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1");
        plain.ttlMs = 29351;
        plain.waiters = 0;
        plain.confidence = LockInfo::Confidence::High;
        plain.evidence << QStringLiteral("owner-shaped field") << QStringLiteral("a \"quoted\" word, a \\ and a tab\t");
        QTest::newRow("reentrant") << plain;

        LockInfo binary = plain;
        // Not UTF-8 (escaped as \xff), control bytes (\u0001, \n), DEL, a quote, a backslash, and real UTF-8.
        // Sized from the literals themselves: they hold no NUL, and a count written by hand reads past them.
        static const char name[] = "lock\xff\x01\n\x7f\"\\ 锁";
        static const char owner[] = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:\x1f\x80";
        binary.name = QByteArray(name, sizeof name - 1);
        binary.holders = { holder(QByteArray(owner, sizeof owner - 1)) };
        binary.waiters = -1;
        binary.ttlMs = -1;
        binary.warnings << QStringLiteral("never expires: 锁\u0002\u001b");
        QTest::newRow("binary and control bytes") << binary;

        LockInfo utf8 = plain;
        utf8.name = "订单:42";
        utf8.holders = { holder("6e3d30b7-83b1-433a-9335-5e8b9916d3ac:线程") };
        QTest::newRow("utf-8") << utf8;

        LockInfo rw = plain;
        rw.kind = LockInfo::Kind::ReadWrite;
        rw.mode = "read";
        rw.holders = { holder("a:1"), holder("b:2") };
        rw.holders[0].writer = true;
        rw.holders[1].deadReader = true;
        rw.holders[1].count = 3;
        QTest::newRow("readwrite") << rw;

        LockInfo fair = plain;
        fair.kind = LockInfo::Kind::Fair;
        fair.queue = { { "c:3", now + 5000 }, { "d:4", now - 10 }, { "e:5", -1 } };
        QTest::newRow("fair queue") << fair;

        LockInfo shed;
        shed.name = "job-lock:default:nightly";
        shed.kind = LockInfo::Kind::String;
        shed.library = "shedlock";
        LockHolder s;
        s.owner = "ADDED:2026-11-25T06:10:00.123Z@worker-7";
        s.count = 1;
        s.host = "worker-7";
        s.sinceMs = now - 60000;
        s.pid = 4242;
        s.node = "02:42:ac:12:00:02";
        shed.holders << s;
        shed.ttlMs = 59507;
        QTest::newRow("string holder details") << shed;

        LockInfo semaphore;
        semaphore.name = "uploads:slots";
        semaphore.kind = LockInfo::Kind::ExpirableSemaphore;
        semaphore.library = "redisson";
        semaphore.counter = 1;
        LockHolder permit = holder("permit-1:x");
        permit.expiresMs = now + 1000;
        LockHolder gone = holder("permit-2:y");
        gone.expiresMs = now - 1000;
        semaphore.holders << permit << gone;
        QTest::newRow("expirable semaphore (permits_free)") << semaphore;

        LockInfo latch;
        latch.name = "boot:ready";
        latch.kind = LockInfo::Kind::CountDownLatch;
        latch.library = "redisson";
        latch.counter = 3;
        QTest::newRow("latch (count)") << latch;

        LockInfo permits;
        permits.name = "semaphore:thumbnails";
        permits.kind = LockInfo::Kind::PermitSet;
        permits.library = "redis-semaphore";
        permits.counter = 2;
        permits.holders << holder("p:1") << holder("p:2");
        QTest::newRow("permit set (permits_taken)") << permits;

        LockInfo noCounter = semaphore;
        noCounter.counter = -1;
        QTest::newRow("counter unknown") << noCounter;

        LockInfo big = plain;
        big.ttlMs = std::numeric_limits<qint64>::max() / 2;
        big.holders[0].count = -7;
        QTest::newRow("big and negative numbers") << big;
    }

    void sameBytesAsQJsonDocument()
    {
        QFETCH(LockInfo, lock);
        const qint64 now = 1764000000000;
        const QByteArray expected = QJsonDocument(reference(lock, now)).toJson(QJsonDocument::Compact);
        QCOMPARE(lockJsonText(lock, now), expected);
    }

    // list --json is one array: the writer places the commas between elements and nested values.
    void arrayOfLocks()
    {
        LockInfo a;
        a.name = "a";
        a.kind = LockInfo::Kind::String;
        LockInfo b = a;
        b.name = "b";
        QByteArray text;
        JsonWriter writer(&text);
        writer.beginArray();
        writeLockJson(writer, a, 0);
        writeLockJson(writer, b, 0);
        writer.endArray();
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(doc.array().size(), 2);
        QCOMPARE(doc.array().at(1).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("b"));
    }
};

QTEST_GUILESS_MAIN(TestLockJson)
#include "tst_lockjson.moc"
