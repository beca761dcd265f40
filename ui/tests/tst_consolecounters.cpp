// Redisson's semaphores and count-down latches in the console (counteractions.h), against a real redis-server: a
// declared semaphore or latch shows what it counts, each action is offered only where it applies and never in
// read-only mode, its waiters hear it as from Redisson, opening a latch keeps to the count the person saw, and every
// attempt is audited as lockscope-cli writes it.
#include "consolefixture.h"
#include "counteractions.h"
#include "detailpane.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsoleCounters : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

    // A console whose profile declares counters:* as Redisson's (its semaphores' and latches' names).
    static LockMonitor::Options declared()
    {
        LockMonitor::Options o = Console::fastMonitor();
        o.stringPatterns.declare("redisson", "counters:*");
        return o;
    }

    // The last audit record's field, or empty before any: the record is written when the answer is in, which may be
    // after the change shows on the server.
    QString lastAudit(const QString &field) const
    {
        const QList<QJsonObject> audit = auditLines(auditPath());
        return audit.isEmpty() ? QString() : audit.last().value(field).toString();
    }

    // The counter actions of the console's lock menu: add permits, release a permit, open latch.
    static QList<QAction *> counterActions(const Console &c) { return c.actions->counterActions(); }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", auditPath().toUtf8());
    }

    void semaphoreGetsPermitsFromTheConsole()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), declared());
        RawRedis raw(m_server.port());
        const QByteArray name = "counters:" + uniqueKey("sem");
        raw.command({ "SET", name, "0" });
        RawSubscriber waiter(m_server.port(), "redisson_sc:{" + name + "}");
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        QVERIFY2(c.cell(name, LockTableModel::Holders).data().toString().contains(QStringLiteral("0")),
            qPrintable(c.cell(name, LockTableModel::Holders).data().toString()));
        // Nothing renews a semaphore, and its missing TTL is no warning: the row says what it counts.
        QCOMPARE(c.cell(name, LockTableModel::Watchdog).data().toString(), QStringLiteral("-"));
        QCOMPARE(c.cell(name, LockTableModel::Ttl).data(LockTableModel::CounterRole).toLongLong(), 0);
        c.select(name);
        QAction *add = counterActions(c).at(0);
        QTRY_VERIFY(add->isEnabled());
        QVERIFY(!counterActions(c).at(2)->isEnabled()); // a semaphore is no latch
        add->trigger();
        QInputDialog *dialog = waitForDialog<QInputDialog>(&c.window);
        dialog->setIntValue(3);
        dialog->accept();
        QTRY_COMPARE_WITH_TIMEOUT(raw.get(name), QByteArray("3"), 10000);
        QCOMPARE(waiter.next(), QByteArray("message:3"));
        QTRY_COMPARE_WITH_TIMEOUT(lastAudit(QStringLiteral("action")), QStringLiteral("add-permits"), 10000);
        QCOMPARE(lastAudit(QStringLiteral("outcome")), QStringLiteral("done"));
    }

    void permitOfRedisson317IsShownAndGivenBackByItsHexId()
    {
        // Redisson 3.17+ keeps a permit as the 16 raw bytes its 32 hex digit id spells: the console shows and offers
        // the id as Java has it, and gives the permit back as Redisson's release(id) does.
        Console c(ConnectionOptions::fromUrl(m_server.url()), declared());
        RawRedis raw(m_server.port());
        const QByteArray name = "counters:" + uniqueKey("permit");
        const QByteArray set = "{" + name + "}:timeout";
        const QByteArray id = "9f86d081884c7d659a2feaa0c55ad015";
        raw.command({ "SET", name, "0" });
        raw.command({ "ZADD", set, QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 3600000),
            QByteArray::fromHex(id) });
        RawSubscriber waiter(m_server.port(), "redisson_sc:{" + name + "}");
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(name) && !c.monitor.record(name)->info.holders.isEmpty(), 10000);
        QCOMPARE(c.monitor.record(name)->info.holders.first().owner, id);
        c.select(name);
        // The detail pane lists the permit by that id.
        QTreeWidget *holders = c.window.detailPane()->holdersView();
        QTRY_COMPARE(holders->topLevelItemCount(), 1);
        QCOMPARE(holders->topLevelItem(0)->text(0), QString::fromLatin1(id));
        QAction *release = counterActions(c).at(1);
        QTRY_VERIFY(release->isEnabled());
        release->trigger();
        QInputDialog *dialog = waitForDialog<QInputDialog>(&c.window);
        QCOMPARE(dialog->comboBoxItems(), QStringList { QString::fromLatin1(id) });
        dialog->setTextValue(QString::fromLatin1(id));
        dialog->accept();
        QTRY_COMPARE_WITH_TIMEOUT(raw.command({ "EXISTS", set }).toInteger(), 0, 10000);
        QCOMPARE(raw.get(name), QByteArray("1"));
        QCOMPARE(waiter.next(), QByteArray("message:1"));
        QTRY_COMPARE_WITH_TIMEOUT(lastAudit(QStringLiteral("outcome")), QStringLiteral("released"), 10000);
        QCOMPARE(lastAudit(QStringLiteral("permit")), QString::fromLatin1(id));
    }

    void latchOpensOnlyWithTheCountShown()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), declared());
        RawRedis raw(m_server.port());
        const QByteArray name = "counters:" + uniqueKey("latch");
        raw.command({ "SET", name, "2" });
        RawSubscriber waiter(m_server.port(), "redisson_countdownlatch__channel__{" + name + "}");
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QAction *open = counterActions(c).at(2);
        QTRY_VERIFY(open->isEnabled());
        QVERIFY(!counterActions(c).at(0)->isEnabled());
        open->trigger();
        QMessageBox *box = waitForDialog<QMessageBox>(&c.window);
        QVERIFY2(box->text().contains(QStringLiteral("count 2")), qPrintable(box->text()));
        const QString shown = c.cell(name, LockTableModel::Holders).data().toString();
        QVERIFY2(shown.contains(QStringLiteral("2")), qPrintable(shown));
        // While the person reads the question, the latch counts down: it is not opened. The answer comes only once
        // the console shows the new count: a guard taken from what the monitor holds now would then open it.
        raw.command({ "DECR", name });
        QTRY_COMPARE_WITH_TIMEOUT(c.cell(name, LockTableModel::Holders).data().toString(),
            QString(shown).replace(QLatin1Char('2'), QLatin1Char('1')), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(c.monitor.record(name)->info.counter, qint64(1), 30000);
        box->button(QMessageBox::Yes)->click();
        QTRY_COMPARE_WITH_TIMEOUT(lastAudit(QStringLiteral("outcome")), QStringLiteral("guard-failed"), 30000);
        QCOMPARE(lastAudit(QStringLiteral("action")), QStringLiteral("open-latch"));
        QCOMPARE(raw.get(name), QByteArray("1"));
        QCOMPARE(waiter.next(), QByteArray("none"));

        QTRY_VERIFY_WITH_TIMEOUT(open->isEnabled(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(name) && c.monitor.record(name)->info.counter == 1, 10000);
        open->trigger();
        // The new question among the window's boxes (the first one, or a message about it, may still be a child):
        // by what it shows, not by its address, which a new box may reuse.
        const auto asked = [&c]() -> QMessageBox * {
            for (QMessageBox *b : c.window.findChildren<QMessageBox *>())
                if (b->isVisible() && b->text().contains(QStringLiteral("Open ")))
                    return b;
            return nullptr;
        };
        QMessageBox *again = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((again = asked()) != nullptr, 30000);
        QVERIFY2(again->text().contains(QStringLiteral("count 1")), qPrintable(again->text()));
        again->button(QMessageBox::Yes)->click();
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 10000);
        QCOMPARE(waiter.next(), QByteArray("message:0"));
        QTRY_COMPARE_WITH_TIMEOUT(lastAudit(QStringLiteral("outcome")), QStringLiteral("deleted"), 10000);
    }

    void readOnlyOffersNone()
    {
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.url());
        options.readOnly = true;
        Console c(options, declared());
        RawRedis raw(m_server.port());
        const QByteArray name = "counters:" + uniqueKey("readonly");
        raw.command({ "SET", name, "1" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QTRY_VERIFY(c.monitor.record(name) && c.monitor.record(name)->present);
        for (QAction *action : counterActions(c))
            QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
    }
};

QTEST_MAIN(TestConsoleCounters)
#include "tst_consolecounters.moc"
