// "Why did my unlock fail?", asked as a support engineer asks it, of the newest and the oldest Redisson pinned: a
// real Redisson service holds a lock under its watchdog while lockscope-cli records; the JVM is stopped (SIGSTOP, as a
// long GC pause stops it) until its lease runs out and another client takes the lock; thawed, its unlock throws
// IllegalMonitorStateException. explain, given that exception's text, tells the story from the recording: the holder
// named in the message, its renewals and the pause that ended them, the expiry, the next owner, and who held the lock
// when the unlock came.
#include "clirun.h"
#include "rawredis.h"
#include "recordingcli.h"
#include "redisserver.h"
#include "redissonfixture.h"
#include "testutil.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestExplain : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    QTemporaryDir m_dir;
    RecordingCli m_cli { m_server, m_dir };

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void unlockAfterAPauseIsExplained_data() { oldestAndNewestRedissonRows(); }
    void unlockAfterAPauseIsExplained()
    {
        QFETCH(QString, version);
        const QByteArray p = uniqueKey("explain");
        const QByteArray name = p + ":orders";
        const QString db = m_dir.filePath(QStringLiteral("incident.sqlite"));
        QProcess recorder;
        m_cli.startRecorder(recorder, db, p);
        RedissonJvm java;
        // A three-second watchdog: it renews every second, and a pause of a few seconds loses the lock.
        QVERIFY(java.start(version, m_server.url(), 3000));
        const QJsonObject locked = java.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, name));
        QVERIFY2(locked.value(QStringLiteral("ok")).toBool(), QJsonDocument(locked).toJson().constData());
        const QString owner = locked.value(QStringLiteral("owner")).toString();
        QVERIFY(!owner.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(eventsOf(m_cli.history(db, name)).count(QStringLiteral("renewed")) >= 2, 60000);

        // The pause: the watchdog stops with the JVM, the lease runs out, another client takes the lock.
        java.freeze();
        RawRedis raw(m_server.port());
        QTRY_VERIFY_WITH_TIMEOUT(raw.command({ "EXISTS", name }).toInteger() == 0, 60000);
        QProcess next;
        startCli(next,
            { QStringLiteral("--json"), QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--hold"),
                QStringLiteral("600000"), QStringLiteral("--url"), m_server.url() },
            m_dir);
        QByteArray nextOut;
        QTRY_VERIFY_WITH_TIMEOUT((nextOut += next.readAllStandardOutput()).contains("acquired"), 30000);
        const QString nextOwner = json(nextOut.left(nextOut.indexOf('\n'))).value(QStringLiteral("owner")).toString();
        QVERIFY(!nextOwner.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(eventsOf(m_cli.history(db, name)).count(QStringLiteral("acquired")) >= 2, 30000);
        java.thaw();
        const QJsonObject unlock = java.call(redissonCall(QStringLiteral("unlock"), QStringLiteral("a"), {}, name));
        const qint64 unlockAt = QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(!unlock.value(QStringLiteral("ok")).toBool(), QJsonDocument(unlock).toJson().constData());
        const QString message = unlock.value(QStringLiteral("error")).toString() + QStringLiteral(": ")
            + unlock.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QLatin1String("not locked by current thread")), qPrintable(message));

        const QList<QJsonObject> answer = m_cli.ask({ QStringLiteral("explain"), message, QStringLiteral("--db"), db,
            QStringLiteral("--around"), QString::number(unlockAt) });
        QCOMPARE(answer.size(), 1);
        const QJsonObject story = answer.first();
        const QString told = QJsonDocument(story).toJson();
        QCOMPARE(story.value(QStringLiteral("owner")).toString(), owner);
        QCOMPARE(story.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QVERIFY2(story.value(QStringLiteral("renewals")).toInt() >= 2, qPrintable(told));
        QCOMPARE(story.value(QStringLiteral("end")).toObject().value(QStringLiteral("event")).toString(),
            QStringLiteral("expired"));
        // The pause: the last gap ends at the expiry, longer than the watchdog's beat, with renewals missed.
        const QJsonArray gaps = story.value(QStringLiteral("gaps")).toArray();
        QVERIFY2(!gaps.isEmpty(), qPrintable(told));
        const QJsonObject pause = gaps.last().toObject();
        QCOMPARE(pause.value(QStringLiteral("at")).toString(),
            story.value(QStringLiteral("end")).toObject().value(QStringLiteral("at")).toString());
        QVERIFY2(pause.value(QStringLiteral("ms")).toInteger()
                > story.value(QStringLiteral("renewal_period_ms")).toInteger(),
            qPrintable(told));
        QVERIFY2(pause.value(QStringLiteral("missed")).toInt() >= 1, qPrintable(told));
        QCOMPARE(story.value(QStringLiteral("next")).toObject().value(QStringLiteral("owner")).toString(), nextOwner);
        QCOMPARE(story.value(QStringLiteral("at_error")).toObject().value(QStringLiteral("holders")).toArray(),
            QJsonArray { nextOwner });
        QVERIFY2(story.value(QStringLiteral("meaning")).toString().contains(QLatin1String("lease ran out")),
            qPrintable(told));

        // For people: the same story in lines.
        const CliRun text = runCli({ QStringLiteral("explain"), message, QStringLiteral("--db"), db,
                                       QStringLiteral("--around"), QString::number(unlockAt) },
            m_dir);
        CLI_EXIT(text, CliExit::Done);
        QVERIFY2(text.out.contains(owner.toUtf8()) && text.out.contains(nextOwner.toUtf8())
                && text.out.contains("the lease ran out"),
            text.describe().constData());

        next.terminate();
        QVERIFY(next.waitForFinished(30000));
        recorder.terminate();
        QVERIFY(recorder.waitForFinished(30000));
    }
};

QTEST_GUILESS_MAIN(TestExplain)
#include "tst_explain.moc"
