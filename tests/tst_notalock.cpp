// Nothing that is not a lock is ever changed, whatever name is typed: every write command of lockscope-cli, run with
// --yes against each Redis type and against values that look like locks without being listed as one, is refused
// with the reason show gives for that name (exit 1), and every key of the server is afterwards byte for byte what
// it was. A counter the user declared as Redisson's is still acted on, and only by the actions of what it is listed
// as.
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// Each name holds something that list and show do not call a lock; owner: what a mistyped --owner, --permit or
// --expect-owner would name there (a field, a member, the value).
struct Value
{
    QByteArray name;
    QList<QList<QByteArray>> write;
    QByteArray owner;
};

const QByteArray kOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";

QList<Value> values()
{
    return {
        { "user:42", { { "HSET", "user:42", "name", "ann", "email", "a@example.org" } }, "name" },
        { "leaderboard", { { "ZADD", "leaderboard", "10", "alice" } }, "alice" },
        { "scores", { { "ZADD", "scores", "1", "a" } }, "a" },
        { "session:abc", { { "SET", "session:abc", "v", "PX", "600000" } }, "v" },
        { "app:count", { { "SET", "app:count", "5" } }, "5" },
        // Inside the default string lock patterns, yet no lock: no TTL, an integer (a counter), a value too long for
        // a token.
        { "lock:config", { { "SET", "lock:config", "on" } }, "on" },
        { "lock:counter", { { "SET", "lock:counter", "7", "PX", "600000" } }, "7" },
        { "lock:blob", { { "SET", "lock:blob", QByteArray(300, 'x'), "PX", "600000" } }, QByteArray(300, 'x') },
        { "jobs", { { "RPUSH", "jobs", "a", "b" } }, "a" },
        { "tags", { { "SADD", "tags", "a" } }, "a" },
        { "events", { { "XADD", "events", "1-1", "k", "v" } }, "k" },
        // Look-alikes: an owner-shaped field whose count is no number, and a Redisson-shaped hash with a field
        // beside its owner.
        { "orders:odd", { { "HSET", "orders:odd", kOwner, "x" } }, kOwner },
        { "orders:mixed", { { "HSET", "orders:mixed", kOwner, "1", "note", "hello" } }, kOwner },
        // A name in another script, as a person may type it.
        { "用户:42", { { "HSET", "用户:42", "name", "ann" } }, "name" },
    };
}

// Every write command, NAME and OWNER filled in per value; all with --yes, as a script would run them.
QList<QPair<QByteArray, QStringList>> commands()
{
    return {
        { "release", { "release", "NAME", "--owner", "OWNER" } },
        { "force-release", { "force-release", "NAME" } },
        { "force-release-expect", { "force-release", "NAME", "--expect-owner", "OWNER" } },
        { "add-permits", { "add-permits", "NAME", "--permits", "3" } },
        { "release-permit", { "release-permit", "NAME", "--permit", "OWNER" } },
        { "open-latch", { "open-latch", "NAME" } },
        { "repair-queue", { "repair-queue", "NAME" } },
    };
}
} // namespace

class TestNotALock : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;
    QHash<QByteArray, QByteArray> m_reasons; // show's words for each name

    CliRun cli(QStringList args)
    {
        return runCli(args << QStringLiteral("--url") << m_server.url() << QStringLiteral("--yes"), m_dir);
    }

    // Every key with its DUMP and whether it expires: what "unchanged" means.
    QMap<QByteArray, QPair<QByteArray, bool>> everything()
    {
        RawRedis raw(m_server.port());
        QMap<QByteArray, QPair<QByteArray, bool>> out;
        const RedisValue keys = raw.command({ "KEYS", "*" });
        for (int i = 0; i < keys.size(); ++i) {
            const QByteArray key = keys.at(i).bytes();
            out.insert(key, { raw.command({ "DUMP", key }).bytes(), raw.pttl(key) >= 0 });
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        RawRedis raw(m_server.port());
        QVERIFY(raw.isConnected());
        raw.command({ "FLUSHALL" });
        for (const Value &v : values())
            for (const QList<QByteArray> &w : v.write)
                QVERIFY(!raw.command(w).isError());
    }

    void writeRefusedOnWhatIsNoLock_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QStringList>("args");
        for (const Value &v : values())
            for (const auto &[id, args] : commands()) {
                QStringList filled;
                for (const QString &a : args)
                    filled << (a == QLatin1String("NAME") ? QString::fromUtf8(v.name)
                            : a == QLatin1String("OWNER") ? QString::fromUtf8(v.owner)
                                                          : a);
                QTest::addRow("%s %s", v.name.toPercentEncoding().constData(), id.constData()) << v.name << filled;
            }
    }

    void writeRefusedOnWhatIsNoLock()
    {
        QFETCH(QByteArray, name);
        QFETCH(QStringList, args);
        const auto before = everything();
        QVERIFY(before.contains(name));

        // What show says of it: not a lock, and why (asked once per name: show changes nothing).
        if (!m_reasons.contains(name)) {
            const CliRun shown = cli({ QStringLiteral("show"), QString::fromUtf8(name) });
            QCOMPARE(shown.exitCode, 1);
            QVERIFY2(!shown.err.trimmed().isEmpty(), "show says why it is no lock");
            // Without the program's name the error messages start with.
            m_reasons.insert(name, shown.err.trimmed().mid(qstrlen("lockscope-cli: ")));
        }
        const QByteArray reason = m_reasons.value(name);

        const CliRun r = cli(args);
        QVERIFY2(r.exitCode == 1,
            qPrintable(QStringLiteral("exit %1, stdout %2, stderr %3")
                           .arg(r.exitCode)
                           .arg(QString::fromUtf8(r.out), QString::fromUtf8(r.err))));
        QVERIFY2(r.err.contains(reason),
            qPrintable(QStringLiteral("refusal '%1' lacks show's reason '%2'")
                           .arg(QString::fromUtf8(r.err), QString::fromUtf8(reason))));
        QVERIFY2(
            !r.out.contains("released") && !r.out.contains("added") && !r.out.contains("opened"), r.out.constData());
        QCOMPARE(everything(), before);
    }

    // A counter declared as Redisson's is one: its own actions run, the others are refused by what it is listed as.
    void declaredCounterTakesOnlyItsActions()
    {
        const QStringList declared { QStringLiteral("--layout-pattern"), QStringLiteral("redisson=app:*") };
        const auto before = everything();
        // Listed as a semaphore: a release of it as a lock is refused, and nothing changes.
        CliRun r = cli(QStringList { QStringLiteral("release"), QStringLiteral("app:count"), QStringLiteral("--owner"),
                           QStringLiteral("5") }
            + declared);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("semaphore"), r.err.constData());
        QCOMPARE(everything(), before);
        r = cli(QStringList { QStringLiteral("add-permits"), QStringLiteral("app:count"), QStringLiteral("--permits"),
                    QStringLiteral("3") }
            + declared);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        RawRedis raw(m_server.port());
        QCOMPARE(raw.get("app:count"), QByteArray("8"));
    }
};

QTEST_GUILESS_MAIN(TestNotALock)
#include "tst_notalock.moc"
