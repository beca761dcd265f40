// One audit vocabulary for both front-ends: the same event is the same "outcome" whoever wrote it, while each keeps the
// "result" words its readers already parse (docs/cli.md#files, the user guide's section 9).
#include "ops/auditrecord.h"

#include "ops/auditlog.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace LockScope;

class TestAuditRecord : public QObject
{
    Q_OBJECT

private slots:
    void sameEventSameOutcome_data()
    {
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("cliResult");
        QTest::addColumn<QString>("consoleResult");
        using O = AuditRecord::Outcome;
        QTest::newRow("released") << int(O::Released) << "released"
                                  << "released"
                                  << "released";
        QTest::newRow("one level") << int(O::StillHeld) << "still-held"
                                   << "decremented"
                                   << "still-held";
        QTest::newRow("not held") << int(O::NotHeld) << "not-held"
                                  << "not-held"
                                  << "not-held";
        QTest::newRow("deleted") << int(O::Deleted) << "deleted"
                                 << "deleted"
                                 << "deleted";
        QTest::newRow("guard failed") << int(O::GuardFailed) << "guard-failed"
                                      << "unchanged"
                                      << "guard-failed";
        QTest::newRow("already gone") << int(O::AlreadyGone) << "already-gone"
                                      << "unchanged"
                                      << "already-gone";
        QTest::newRow("acquired") << int(O::Acquired) << "acquired"
                                  << "acquired"
                                  << "acquired";
        QTest::newRow("busy") << int(O::Busy) << "busy"
                              << "busy"
                              << "busy";
        QTest::newRow("done") << int(O::Done) << "done"
                              << "done"
                              << "done";
    }
    void sameEventSameOutcome()
    {
        QFETCH(int, outcome);
        QFETCH(QString, word);
        QFETCH(QString, cliResult);
        QFETCH(QString, consoleResult);
        AuditRecord record(QStringLiteral("force-release"), QStringLiteral("redis://127.0.0.1:1/0"), "orders:42",
            "3b994673-ac41-4c0c-8f75-1b2a04b5341e");
        record.setOutcome(AuditRecord::Outcome(outcome));
        const QJsonObject cli = record.toJson(AuditRecord::Writer::Cli);
        const QJsonObject console = record.toJson(AuditRecord::Writer::Console);
        QCOMPARE(cli.value(QStringLiteral("outcome")).toString(), word);
        QCOMPARE(console.value(QStringLiteral("outcome")).toString(), word);
        QCOMPARE(cli.value(QStringLiteral("result")).toString(), cliResult);
        QCOMPARE(console.value(QStringLiteral("result")).toString(), consoleResult);
        QCOMPARE(cli.value(QStringLiteral("name")).toString(), QStringLiteral("orders:42"));
        QCOMPARE(cli.value(QStringLiteral("client_id")), console.value(QStringLiteral("client_id")));
    }

    void anErrorIsFailedWithItsText()
    {
        AuditRecord record(QStringLiteral("release"), QStringLiteral("redis://127.0.0.1:1/0"), "n", "c");
        record.setError(RedisError(RedisError::Kind::ReadOnly, QStringLiteral("release refused: read-only mode")));
        for (const auto writer : { AuditRecord::Writer::Cli, AuditRecord::Writer::Console }) {
            const QJsonObject json = record.toJson(writer);
            QCOMPARE(json.value(QStringLiteral("outcome")).toString(), QStringLiteral("failed"));
            QVERIFY(json.value(QStringLiteral("result")).toString().contains(QStringLiteral("read-only mode")));
        }
    }

    void binaryNamesAreWrittenEscaped()
    {
        // Both front-ends write a name that is no UTF-8 as it is shown, so the record can be matched to the screen.
        const AuditRecord record(QStringLiteral("release"), QStringLiteral("u"), QByteArray("a\xff", 2), "c");
        QCOMPARE(record.toJson(AuditRecord::Writer::Console).value(QStringLiteral("name")).toString(),
            QStringLiteral("a\\xff"));
    }

    void theLogIsItsOwnersAloneAndNamesTheAccount()
    {
        // Every lock name, server and owner acted on is in it: on a shared bastion nobody else may read it, and under
        // cron or systemd ($USER unset) the record still says whose account acted.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("sub/audit.log"));
        qputenv("LOCKSCOPE_AUDIT_LOG", path.toLocal8Bit());
        qunsetenv("USER");
        qunsetenv("LOGNAME");
        const mode_t before = umask(022);
        QVERIFY(AuditLog::append(QJsonObject { { QStringLiteral("action"), QStringLiteral("release") } }));
        struct stat made
        {
        };
        QCOMPARE(stat(path.toLocal8Bit().constData(), &made), 0);
        QCOMPARE(made.st_mode & 0777, mode_t(0600));

        // A log an older version made world-readable is narrowed at the next record.
        QVERIFY(QFile::setPermissions(
            path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther | QFileDevice::ReadGroup));
        QVERIFY(AuditLog::append(QJsonObject { { QStringLiteral("action"), QStringLiteral("release") } }));
        QCOMPARE(stat(path.toLocal8Bit().constData(), &made), 0);
        QCOMPARE(made.st_mode & 0777, mode_t(0600));
        umask(before);

        QFile log(path);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QJsonObject first = QJsonDocument::fromJson(log.readLine()).object();
        const passwd *account = getpwuid(geteuid());
        QVERIFY(account);
        QCOMPARE(first.value(QStringLiteral("user")).toString(), QString::fromLocal8Bit(account->pw_name));

        qunsetenv("LOCKSCOPE_AUDIT_LOG");
    }
};

QTEST_GUILESS_MAIN(TestAuditRecord)
#include "tst_auditrecord.moc"
