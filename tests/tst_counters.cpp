// Redisson's semaphores and count-down latches against a real server (docs/protocol/semaphores.md): a name declared
// as Redisson's (--layout-pattern redisson=GLOB) that holds an integer is shown as what its keys and listeners say it
// is, with its free permits or count, an expirable semaphore's permits each with its expiry; an integer nobody
// declared stays application data; and none of them is released or force-released as if it were a lock.
#include "clirun.h"
#include "doctranscript.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestCounters : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    CliRun cli(QStringList args) { return runCli(args << QStringLiteral("--url") << m_server.url(), m_dir); }

    static QStringList declare(const QByteArray &glob)
    {
        return { QStringLiteral("--layout-pattern"), QStringLiteral("redisson=") + QString::fromUtf8(glob) };
    }

    // The objects `list --json` shows among names matching glob, by name; nothing (the test failed) when list failed.
    std::optional<QHash<QString, QJsonObject>> listed(const QByteArray &glob, const QStringList &extra = {})
    {
        return listedLocks(m_server.url(), m_dir, QString::fromUtf8(glob), extra);
    }

    // A raw client subscribed to channel, the subscription confirmed.
    static bool listen(RawRedis &raw, const QByteArray &channel)
    {
        raw.append({ "SUBSCRIBE", channel });
        return raw.readReply(5000).at(0).bytes() == "subscribe";
    }

    // The audit log's records, one object per line.
    QList<QJsonObject> auditRecords()
    {
        QFile f(m_dir.filePath(QStringLiteral("audit.log")));
        QList<QJsonObject> out;
        if (!f.open(QIODevice::ReadOnly))
            return out;
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.trimmed().isEmpty())
                out << QJsonDocument::fromJson(line).object();
        return out;
    }

    QJsonObject lastAudit()
    {
        const QList<QJsonObject> all = auditRecords();
        return all.isEmpty() ? QJsonObject() : all.last();
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void declaredSemaphoreShowsItsFreePermits()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "sem:" + uniqueKey("plain");
        raw.command({ "SET", name, "5" });
        const auto undeclared = listed(name);
        QVERIFY(undeclared);
        QVERIFY(undeclared->isEmpty()); // undeclared, an integer is application data

        const auto locks = listed(name, declare("sem:*"));
        QVERIFY(locks);
        const QJsonObject o = locks->value(QString::fromUtf8(name));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("semaphore"));
        QCOMPARE(o.value(QStringLiteral("library")).toString(), QStringLiteral("redisson"));
        QCOMPARE(o.value(QStringLiteral("permits_free")).toInt(-1), 5);
        QCOMPARE(o.value(QStringLiteral("holders")).toArray().size(), 0);
        QCOMPARE(o.value(QStringLiteral("waiters")).toInt(-1), 0);
        QCOMPARE(o.value(QStringLiteral("confidence")).toString(), QStringLiteral("medium"));
    }

    void semaphoreWaitersAreCountedAndVouchForIt()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "sem:" + uniqueKey("waited");
        raw.command({ "SET", name, "0" });
        RawRedis waiter(m_server.port());
        QVERIFY(listen(waiter, "redisson_sc:{" + name + "}"));
        const auto locks = listed(name, declare(name));
        QVERIFY(locks);
        const QJsonObject o = locks->value(QString::fromUtf8(name));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("semaphore"));
        QCOMPARE(o.value(QStringLiteral("permits_free")).toInt(-1), 0);
        QCOMPARE(o.value(QStringLiteral("waiters")).toInt(-1), 1);
        QCOMPARE(o.value(QStringLiteral("confidence")).toString(), QStringLiteral("high"));
    }

    void latchIsToldApartByItsWaiters()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "latch:" + uniqueKey("latch");
        raw.command({ "SET", name, "3" });
        RawRedis waiter(m_server.port());
        QVERIFY(listen(waiter, "redisson_countdownlatch__channel__{" + name + "}"));
        const auto locks = listed(name, declare("latch:*"));
        QVERIFY(locks);
        const QJsonObject o = locks->value(QString::fromUtf8(name));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("count-down-latch"));
        QCOMPARE(o.value(QStringLiteral("library")).toString(), QStringLiteral("redisson"));
        QCOMPARE(o.value(QStringLiteral("count")).toInt(-1), 3);
        QVERIFY(!o.contains(QStringLiteral("permits_free")));
        QCOMPARE(o.value(QStringLiteral("waiters")).toInt(-1), 1);
    }

    void expirableSemaphoreShowsEachPermitWithItsExpiry()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "es:" + uniqueKey("expirable");
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        raw.command({ "SET", name, "2" });
        const QByteArray live = "0123456789abcdef0123456789abcdef", gone = "fedcba9876543210fedcba9876543210",
                         unleased = "00112233445566778899aabbccddeeff";
        raw.command({ "ZADD", "{" + name + "}:timeout", QByteArray::number(now + 600000), live,
            QByteArray::number(now - 60000), gone, "922337203685477", unleased });
        const auto locks = listed(name, declare("es:*"));
        QVERIFY(locks);
        const QJsonObject o = locks->value(QString::fromUtf8(name));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("expirable-semaphore"));
        QCOMPARE(o.value(QStringLiteral("permits_free")).toInt(-1), 2);
        QCOMPARE(o.value(QStringLiteral("confidence")).toString(), QStringLiteral("high"));
        QHash<QString, QJsonObject> permits;
        for (const QJsonValue &v : o.value(QStringLiteral("holders")).toArray())
            permits.insert(v.toObject().value(QStringLiteral("owner")).toString(), v.toObject());
        QCOMPARE(permits.size(), 3);
        QCOMPARE(permits.value(QString::fromLatin1(live)).value(QStringLiteral("expired")).toBool(true), false);
        QCOMPARE(permits.value(QString::fromLatin1(gone)).value(QStringLiteral("expired")).toBool(false), true);
        QVERIFY(!permits.value(QString::fromLatin1(unleased)).contains(QStringLiteral("expires_at")));
        QVERIFY(o.value(QStringLiteral("warnings")).toArray().size() == 1);
        QVERIFY(o.value(QStringLiteral("warnings")).toArray().at(0).toString().contains(QStringLiteral("expired")));
        // The text list says how many are taken and how many free, not one permit's id.
        const CliRun text
            = cli(QStringList { QStringLiteral("list"), QStringLiteral("--pattern"), QString::fromUtf8(name) }
                + declare("es:*"));
        CLI_EXIT(text, CliExit::Done);
        QVERIFY2(text.out.contains("3 permits taken, 2 permits free"), text.out.constData());
    }

    void integerUnderALockPrefixIsNoLockHolder()
    {
        // Tried as a new user would: a Redisson semaphore named lock:... was shown as a lock held by "5".
        RawRedis raw(m_server.port());
        const QByteArray name = "lock:" + uniqueKey("counter");
        raw.command({ "SET", name, "5", "PX", "600000" });
        const auto undeclared = listed(name);
        QVERIFY(undeclared);
        QVERIFY(!undeclared->contains(QString::fromUtf8(name)));
        const auto locks = listed(name, declare(name));
        QVERIFY(locks);
        const QJsonObject o = locks->value(QString::fromUtf8(name));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("semaphore"));
        QCOMPARE(o.value(QStringLiteral("holders")).toArray().size(), 0);
    }

    void aCounterIsNeverReleasedAsALock()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "sem:" + uniqueKey("guarded");
        raw.command({ "SET", name, "4" });
        const CliRun force
            = cli(QStringList { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") }
                + declare(name));
        CLI_REFUSED(force, CliExit::NotDone, "not a lock");
        const CliRun release = cli(QStringList { QStringLiteral("release"), QString::fromUtf8(name),
                                       QStringLiteral("--owner"), QStringLiteral("4") }
            + declare(name));
        CLI_REFUSED(release, CliExit::NotDone, "not a lock");
        QCOMPARE(raw.get(name), QByteArray("4"));
    }

    void showNamesTheCount()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "sem:" + uniqueKey("shown");
        raw.command({ "SET", name, "7" });
        const CliRun r = cli(QStringList { QStringLiteral("show"), QString::fromUtf8(name) } + declare(name));
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("semaphore"), r.out.constData());
        QVERIFY2(r.out.contains("7"), r.out.constData());
    }
    void addPermitsTellsTheSemaphoresWaiters()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "sem:" + uniqueKey("add");
        raw.command({ "SET", name, "0" });
        RawRedis waiter(m_server.port());
        QVERIFY(listen(waiter, "redisson_sc:{" + name + "}"));
        // Only a name declared as Redisson's holds a semaphore: an integer elsewhere is application data.
        const CliRun r = cli(QStringList { QStringLiteral("add-permits"), QString::fromUtf8(name),
                                 QStringLiteral("--permits"), QStringLiteral("2") }
            + declare("sem:*"));
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.get(name), QByteArray("2"));
        // What Redisson's own release publishes, the count now: its waiters try again.
        const RedisValue heard = waiter.readReply(20000);
        QVERIFY2(heard.isArray() && heard.size() == 3, "no message on the semaphore's channel");
        QCOMPARE(heard.at(0).bytes(), "message");
        QCOMPARE(heard.at(2).bytes(), "2");
        const QJsonObject audit = lastAudit();
        QCOMPARE(audit.value(QStringLiteral("action")).toString(), QStringLiteral("add-permits"));
        QCOMPARE(audit.value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
        QCOMPARE(audit.value(QStringLiteral("permits")).toInt(), 2);
    }

    void releasePermitGivesItBackAsItsHolderWould()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "es:" + uniqueKey("release");
        const QByteArray permit = "0123456789abcdef0123456789abcdef";
        raw.command({ "SET", name, "0" });
        raw.command({ "ZADD", "{" + name + "}:timeout", "922337203685477", permit });
        RawRedis waiter(m_server.port());
        QVERIFY(listen(waiter, "redisson_sc:{" + name + "}"));
        const CliRun r = cli(QStringList { QStringLiteral("release-permit"), QString::fromUtf8(name),
                                 QStringLiteral("--permit"), QString::fromLatin1(permit) }
            + declare("es:*"));
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.get(name), QByteArray("1"));
        QCOMPARE(raw.command({ "ZCARD", "{" + name + "}:timeout" }).toInteger(), 0);
        const RedisValue heard = waiter.readReply(20000);
        QVERIFY2(heard.isArray() && heard.size() == 3, "no message on the semaphore's channel");
        QCOMPARE(heard.at(2).bytes(), "1");
        QCOMPARE(lastAudit().value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));

        // Given back twice: the second finds nothing of it and changes nothing.
        const CliRun again = cli(QStringList { QStringLiteral("release-permit"), QString::fromUtf8(name),
                                     QStringLiteral("--permit"), QString::fromLatin1(permit) }
            + declare("es:*"));
        CLI_REFUSED(again, CliExit::NotDone, "nothing changed");
        QCOMPARE(raw.get(name), QByteArray("1"));
        QCOMPARE(lastAudit().value(QStringLiteral("outcome")).toString(), QStringLiteral("not-held"));
    }

    void permitOfRedisson317IsShownAndGivenBackByItsHexId()
    {
        // Since Redisson 3.17 a member of {N}:timeout is the 16 raw bytes the 32 hex digits of Java's permit id
        // spell (acquire() returns the hex; the set holds the bytes). Tried as a new user would: shown as an escaped
        // byte string, and no spelling of --permit could give it back.
        RawRedis raw(m_server.port());
        const QByteArray name = "es:" + uniqueKey("raw-id");
        const QByteArray set = "{" + name + "}:timeout";
        const QByteArray id = "9f86d081884c7d659a2feaa0c55ad015", other = "00ff10ee20dd30cc40bb50aa60997088";
        const qint64 expires = QDateTime::currentMSecsSinceEpoch() + 3600000; // far in the future: live permits
        raw.command({ "SET", name, "0" });
        raw.command({ "ZADD", set, QByteArray::number(expires), QByteArray::fromHex(id), QByteArray::number(expires),
            QByteArray::fromHex(other) });
        QCOMPARE(raw.command({ "ZCARD", set }).toInteger(), 2);

        // Shown as Java has the id, in JSON and in show's text.
        const auto locks = listed(name, declare(name));
        QVERIFY(locks);
        const QJsonObject o = locks->value(QString::fromUtf8(name));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("expirable-semaphore"));
        QStringList owners;
        for (const QJsonValue &v : o.value(QStringLiteral("holders")).toArray())
            owners << v.toObject().value(QStringLiteral("owner")).toString();
        owners.sort();
        QCOMPARE(owners, (QStringList { QString::fromLatin1(other), QString::fromLatin1(id) }));
        const CliRun shown = cli(QStringList { QStringLiteral("show"), QString::fromUtf8(name) } + declare(name));
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains(id) && shown.out.contains(other), shown.out.constData());

        RawSubscriber waiters(m_server.port(), "redisson_sc:{" + name + "}");
        // An id one digit off matches no member: nothing changes and nobody is told.
        QByteArray wrong = id;
        wrong[31] = '6';
        const CliRun miss = cli(QStringList { QStringLiteral("release-permit"), QString::fromUtf8(name),
                                    QStringLiteral("--permit"), QString::fromLatin1(wrong), QStringLiteral("--yes") }
            + declare(name));
        QCOMPARE(miss.exitCode, 1);
        QCOMPARE(raw.get(name), QByteArray("0"));
        QCOMPARE(raw.command({ "ZCARD", set }).toInteger(), 2);
        QCOMPARE(waiters.next(), QByteArray("none"));

        // The id as shown gives it back as Redisson's release does: out of the set, one more free, the count now
        // published on redisson_sc:{N}.
        const CliRun r = cli(QStringList { QStringLiteral("release-permit"), QString::fromUtf8(name),
                                 QStringLiteral("--permit"), QString::fromLatin1(id), QStringLiteral("--yes") }
            + declare(name));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(raw.get(name), QByteArray("1"));
        QVERIFY(raw.command({ "ZSCORE", set, QByteArray::fromHex(id) }).isNil());
        QVERIFY(!raw.command({ "ZSCORE", set, QByteArray::fromHex(other) }).isNil());
        QCOMPARE(waiters.next(), QByteArray("message:1"));
        QCOMPARE(lastAudit().value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));
        QCOMPARE(lastAudit().value(QStringLiteral("permit")).toString(), QString::fromLatin1(id));

        // In capitals too, as Java's decodeHexDump takes it.
        const CliRun upper
            = cli(QStringList { QStringLiteral("release-permit"), QString::fromUtf8(name), QStringLiteral("--permit"),
                      QString::fromLatin1(other.toUpper()), QStringLiteral("--yes") }
                + declare(name));
        QCOMPARE(upper.exitCode, 0);
        QCOMPARE(raw.get(name), QByteArray("2"));
        QCOMPARE(raw.command({ "EXISTS", set }).toInteger(), 0);
        QCOMPARE(waiters.next(), QByteArray("message:2"));
    }

    void permitIdTextIsTriedBeforeItsBytes()
    {
        // The rule when one id could name two members (an older Redisson's text id and a 3.17+ member of the bytes
        // it spells): the text as given first, then the bytes; one member per release.
        RawRedis raw(m_server.port());
        const QByteArray name = "es:" + uniqueKey("both");
        const QByteArray set = "{" + name + "}:timeout";
        const QByteArray id = "0123456789abcdef0123456789abcdef";
        raw.command({ "SET", name, "0" });
        raw.command({ "ZADD", set, "922337203685477", id, "922337203685477", QByteArray::fromHex(id) });
        const QStringList release = QStringList { QStringLiteral("release-permit"), QString::fromUtf8(name),
            QStringLiteral("--permit"), QString::fromLatin1(id), QStringLiteral("--yes") }
            + declare(name);
        QCOMPARE(cli(release).exitCode, 0);
        QVERIFY(raw.command({ "ZSCORE", set, id }).isNil());
        QVERIFY(!raw.command({ "ZSCORE", set, QByteArray::fromHex(id) }).isNil());
        QCOMPARE(cli(release).exitCode, 0);
        QCOMPARE(raw.command({ "EXISTS", set }).toInteger(), 0);
        QCOMPARE(raw.get(name), QByteArray("2"));
        QCOMPARE(cli(release).exitCode, 1);
        QCOMPARE(raw.get(name), QByteArray("2"));
    }

    void openLatchWakesEveryWaiterUnderTheCountShown()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "latch:" + uniqueKey("open");
        raw.command({ "SET", name, "3" });
        RawRedis waiter(m_server.port());
        QVERIFY(listen(waiter, "redisson_countdownlatch__channel__{" + name + "}"));
        // The count the person saw is no longer there: nothing is opened.
        const CliRun stale = cli(QStringList { QStringLiteral("open-latch"), QString::fromUtf8(name),
                                     QStringLiteral("--expect-count"), QStringLiteral("4"), QStringLiteral("--yes") }
            + declare("latch:*"));
        CLI_REFUSED(stale, CliExit::NotDone, "counted on after it was shown");
        QCOMPARE(raw.get(name), QByteArray("3"));
        QCOMPARE(lastAudit().value(QStringLiteral("outcome")).toString(), QStringLiteral("guard-failed"));

        const CliRun r
            = cli(QStringList { QStringLiteral("open-latch"), QString::fromUtf8(name), QStringLiteral("--yes") }
                + declare("latch:*"));
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.type(name), QByteArray("none"));
        // "0" is Redisson's "opened": every waiter of the latch goes on.
        const RedisValue heard = waiter.readReply(20000);
        QVERIFY2(heard.isArray() && heard.size() == 3, "no message on the latch's channel");
        QCOMPARE(heard.at(0).bytes(), "message");
        QCOMPARE(heard.at(2).bytes(), "0");
        const QJsonObject audit = lastAudit();
        QCOMPARE(audit.value(QStringLiteral("action")).toString(), QStringLiteral("open-latch"));
        QCOMPARE(audit.value(QStringLiteral("outcome")).toString(), QStringLiteral("deleted"));
        QCOMPARE(audit.value(QStringLiteral("expect_count")).toString(), QStringLiteral("3"));
    }

    void actionsChangeNothingButCounters()
    {
        RawRedis raw(m_server.port());
        const QByteArray token = "lock:" + uniqueKey("token"), hash = uniqueKey("hash");
        raw.command({ "SET", token, "AbCdEfGhIjKlMnOpQrSt+v12", "PX", "600000" });
        raw.command({ "HSET", hash, "field", "1" });
        // Refused by what each is listed as, before anything is sent: a string lock is no counter, a hash of
        // application data no lock at all.
        const QList<QPair<QByteArray, QByteArray>> refusals { { token, "is listed as a string, and %1 does not apply" },
            { hash, "is not a lock (it holds a hash); %1 refused" } };
        for (const auto &[name, reason] : refusals) {
            const CliRun add = cli({ QStringLiteral("add-permits"), QString::fromUtf8(name) });
            CLI_REFUSED(add, CliExit::NotDone, QString::fromLatin1(reason).arg(QStringLiteral("add-permits")).toUtf8());
            const CliRun open = cli({ QStringLiteral("open-latch"), QString::fromUtf8(name), QStringLiteral("--yes") });
            CLI_REFUSED(open, CliExit::NotDone, QString::fromLatin1(reason).arg(QStringLiteral("open-latch")).toUtf8());
        }
        QCOMPARE(raw.get(token), QByteArray("AbCdEfGhIjKlMnOpQrSt+v12"));
        QCOMPARE(raw.hgetall(hash).value("field"), QByteArray("1"));
        const CliRun missing = cli({ QStringLiteral("add-permits"),
            QStringLiteral("sem:nobody-%1").arg(QString::fromLatin1(uniqueKey("gone"))) });
        CLI_REFUSED(missing, CliExit::NotDone, "does not exist");
    }

    void readOnlyRefusesEveryAction()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "sem:" + uniqueKey("readonly");
        raw.command({ "SET", name, "1" });
        for (const QString &action :
            { QStringLiteral("add-permits"), QStringLiteral("release-permit"), QStringLiteral("open-latch") }) {
            const CliRun r = cli({ QStringLiteral("--read-only"), action, QString::fromUtf8(name),
                QStringLiteral("--permit"), QStringLiteral("x"), QStringLiteral("--yes") });
            CLI_REFUSED(r, CliExit::Refused, QStringLiteral("%1 refused: read-only mode").arg(action).toUtf8());
        }
        QCOMPARE(raw.get(name), QByteArray("1"));
    }

    // docs/cli.md's transcripts run as printed: each command, on a server holding what the transcript's names held
    // (an idle semaphore with no permit, a latch at 3, nobody waiting on either), prints exactly its lines. Only the
    // server's address differs.
    void docsTranscriptsRunAsPrinted_data()
    {
        QTest::addColumn<QByteArray>("marker");
        QTest::newRow("counters") << QByteArray("add-permits jobs:slots");
        QTest::newRow("read-only") << QByteArray("--read-only lock x");
    }
    void docsTranscriptsRunAsPrinted()
    {
        QFETCH(QByteArray, marker);
        RawRedis raw(m_server.port());
        QVERIFY(!raw.command({ "DEL", "jobs:slots", "boot:ready", "x" }).isError());
        QVERIFY(!raw.command({ "SET", "jobs:slots", "0" }).isError());
        QVERIFY(!raw.command({ "SET", "boot:ready", "3" }).isError());
        const QList<TranscriptCommand> transcript
            = docTranscript(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../docs/cli.md"), marker);
        QVERIFY2(!transcript.isEmpty(), marker.constData());
        for (TranscriptCommand command : transcript) {
            const int url = command.args.indexOf(QStringLiteral("--url"));
            QVERIFY(url >= 0);
            command.args[url + 1] = m_server.url();
            const CliRun r = runCli(command.args, m_dir);
            QVERIFY2(r.normal(), r.describe().constData());
            const QByteArray said = (r.out + r.err).trimmed();
            QVERIFY2(said == command.printed.join('\n').trimmed(), r.describe().constData());
        }
        QVERIFY(!raw.command({ "DEL", "jobs:slots", "boot:ready" }).isError());
    }
};

QTEST_GUILESS_MAIN(TestCounters)
#include "tst_counters.moc"
