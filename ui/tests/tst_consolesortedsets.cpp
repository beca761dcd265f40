// Locks kept in sorted sets in the desktop console, against a real redis-server: a redis-semaphore permit set written
// as the library writes it is listed with its permits, and a force release removes only the permits the person was
// shown: one given back while the dialog was open is not taken again, and one taken meanwhile stays. Audited with the
// layout's kind, as lockscope-cli writes it.
#include "consolefixture.h"
#include "detailpane.h"
#include "forcereleasedialog.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAction>
#include <QDateTime>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray permitA = "9b2c1f2e-5d0c-4b7a-9a53-2f1c3e4d5a6b";
const QByteArray permitB = "0c8e7d6f-1a2b-4c3d-8e9f-a0b1c2d3e4f5";
const QByteArray permitC = "5e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b";
} // namespace

class TestConsoleSortedSets : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }
    ConnectionOptions options() const { return ConnectionOptions::fromUrl(m_server.url()); }

    // Whether the detail pane lists this holder (the selected lock's permits, as the person sees them).
    static bool detailShows(const Console &c, const QByteArray &permit)
    {
        const QTreeWidget *holders = c.window.detailPane()->holdersView();
        for (int i = 0; i < holders->topLevelItemCount(); ++i)
            if (holders->topLevelItem(i)->text(0) == QString::fromUtf8(permit))
                return true;
        return false;
    }

    static void takePermit(RawRedis &raw, const QByteArray &key, const QByteArray &id)
    {
        raw.command({ "ZADD", key, QByteArray::number(QDateTime::currentMSecsSinceEpoch()), id });
        raw.command({ "PEXPIRE", key, "60000" });
    }

private slots:
    void initTestCase() { startConsoleTest(m_server, m_dir); }

    void forceReleaseRemovesOnlyThePermitsShown()
    {
        Console c(options());
        RawRedis raw(m_server.port());
        const QByteArray name = "semaphore:" + uniqueKey("console");
        takePermit(raw, name, permitA);
        takePermit(raw, name, permitB);
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        QTRY_COMPARE(c.cell(name, LockTableModel::Holders).data().toString(), QStringLiteral("2 permit(s) taken"));
        c.select(name);
        QTRY_VERIFY(c.actions->forceReleaseAction()->isEnabled());
        c.actions->forceReleaseAction()->trigger();
        ForceReleaseDialog *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY(dialog);
        QList<QByteArray> shown = dialog->shownHolders();
        std::sort(shown.begin(), shown.end());
        QCOMPARE(shown, (QList<QByteArray> { permitB, permitA }));
        // While the person reads the dialog, one holder gives its permit back and another takes one.
        raw.command({ "ZREM", name, permitA });
        takePermit(raw, name, permitC);
        // The confirmation comes only once the console shows the change: a removal built from what the monitor
        // holds now would then take permit C too. Only the permits shown in the dialog may go.
        QTRY_VERIFY_WITH_TIMEOUT(detailShows(c, permitC) && detailShows(c, permitB) && !detailShows(c, permitA), 30000);
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(raw.command({ "ZSCORE", name, permitB }).isNil(), 30000);
        QVERIFY(!raw.command({ "ZSCORE", name, permitC }).isNil());
        QCOMPARE(raw.command({ "ZCARD", name }).toInteger(), 1);
        const auto audited = [&] {
            const QList<QJsonObject> lines = auditLines(auditPath());
            return std::any_of(lines.cbegin(), lines.cend(), [&](const QJsonObject &o) {
                return o.value(QStringLiteral("name")).toString() == QString::fromUtf8(name)
                    && o.value(QStringLiteral("result")).toString() == QStringLiteral("deleted")
                    && o.value(QStringLiteral("kind")).toString() == QStringLiteral("permit-set");
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(audited(), 30000);
    }
};

QTEST_MAIN(TestConsoleSortedSets)
#include "tst_consolesortedsets.moc"
