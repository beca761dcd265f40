// The Lease view (Tools › Lease advice…), as a person reads it: a recording whose holds are known exactly, a fixed
// lease the work outgrows flagged first with what to change, a watchdog lock with its client's renewal rhythm when its
// row is clicked; Return asks again and changes nothing (the view only reads). The console's own Tools entry opens it
// on the console's recording once it records. A real redis-server for the console.
#include "consolefixture.h"
#include "leaseview.h"
#include "recording/recordingstore.h"
#include "replay/leaseadvicemodel.h"
#include "translations.h"

#include <QComboBox>
#include <QCryptographicHash>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
QByteArray sha(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                                       : QByteArray();
}

QModelIndex rowOf(QTableView *view, const QByteArray &name)
{
    for (int r = 0; r < view->model()->rowCount(); ++r)
        if (view->model()->index(r, 0).data(LeaseAdviceModel::NameRole).toByteArray() == name)
            return view->model()->index(r, 0);
    return {};
}
} // namespace

class TestConsoleLease : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        startConsoleTest(m_server, m_dir);
        QVERIFY(I18n::install(QStringLiteral("en")));
    }

    void whatToChangeForEachLock()
    {
        const QString path = m_dir.filePath(QStringLiteral("lease.sqlite"));
        const QByteArray server = "redis://127.0.0.1:1/0";
        const QByteArray a = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", x = "0f6c8a3e-1b2d-4c5e-8f90-a1b2c3d4e5f6:7";
        QList<RecordedEvent> rows;
        const auto add = [&](qint64 t, const char *type, const QByteArray &name, const QByteArray &owner, qint64 ttl) {
            rows << RecordedEvent { t, server, type, name, owner, {}, QByteArray(type) == "released" ? 0 : 1, ttl, -1,
                "reentrant", "redisson", {} };
        };
        const qint64 t0 = 1764300000000;
        for (int i = 0; i < 10; ++i) { // a 3 s lease; two holds of ten outlive two thirds of it
            add(t0 + i * 5000, "acquired", "fixed", a, 3000);
            add(t0 + i * 5000 + (i < 8 ? 1000 : 2500), "released", "fixed", a, -2);
        }
        add(t0, "acquired", "wd", x, 30000); // renewed every 10 s
        for (const qint64 at : { 10000, 20000, 30000, 40000 })
            add(t0 + at, "renewed", "wd", x, 30000);
        add(t0 + 45000, "released", "wd", x, -2);
        std::sort(rows.begin(), rows.end(),
            [](const RecordedEvent &l, const RecordedEvent &r) { return l.timeMs < r.timeMs; });
        {
            RecordingStore store;
            QString error;
            QVERIFY2(store.open(path, true, &error), qPrintable(error));
            QVERIFY2(store.append(rows, &error), qPrintable(error));
        }
        const QByteArray before = sha(path);

        LeaseView view(path);
        QSignalSpy advised(&view, &LeaseView::advised);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY_WITH_TIMEOUT(advised.size() >= 1, 30000);
        QCOMPARE(view.locksModel()->rowCount(), 2);
        // Flagged first: the fixed lease, with the verdict's words.
        const QModelIndex first = view.locksView()->model()->index(0, 0);
        QCOMPARE(first.data(LeaseAdviceModel::NameRole).toByteArray(), QByteArray("fixed"));
        QCOMPARE(first.data(LeaseAdviceModel::VerdictCodesRole).toStringList(),
            QStringList { QStringLiteral("lease-too-short") });
        QVERIFY2(view.locksView()
                     ->model()
                     ->index(0, LeaseAdviceModel::Verdicts)
                     .data()
                     .toString()
                     .startsWith(QStringLiteral("lease too short: 20 % of holds passed")),
            qPrintable(view.locksView()->model()->index(0, LeaseAdviceModel::Verdicts).data().toString()));
        QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("2 locks held, 1 with advice")),
            qPrintable(view.statusLabel()->text()));

        // The watchdog lock's row clicked: its client renews every 10 s, a 30 s lockWatchdogTimeout.
        const QModelIndex wd = rowOf(view.locksView(), "wd");
        QVERIFY(wd.isValid());
        QCOMPARE(wd.data(LeaseAdviceModel::VerdictCodesRole).toStringList(), QStringList {});
        QTest::mouseClick(view.locksView()->viewport(), Qt::LeftButton, {}, view.locksView()->visualRect(wd).center());
        QCOMPARE(view.clientsModel()->rowCount(), 1);
        QCOMPARE(
            view.clientsModel()->index(0, LeaseClientsModel::Client).data().toString(), QString::fromUtf8(x.left(36)));
        QCOMPARE(view.clientsModel()->index(0, LeaseClientsModel::Period).data().toString(), QStringLiteral("10.0 s"));
        QCOMPARE(view.clientsModel()->index(0, LeaseClientsModel::InferredTimeout).data().toString(),
            QStringLiteral("30.0 s"));

        // Return asks again: the same answer, the lock still selected, the file as it was.
        QTest::keyClick(view.locksView(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(advised.size() >= 2, 30000);
        QCOMPARE(view.locksModel()->rowCount(), 2);
        QCOMPARE(view.clientsModel()->rowCount(), 1);
        QCOMPARE(sha(path), before);
    }

    void theConsolesToolsEntry()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(!c.window.leaseAction()->isEnabled()); // nothing to read before the console records
        recordConsole(c, m_server, m_dir.filePath(QStringLiteral("console.sqlite")));
        QVERIFY(c.window.leaseAction()->isEnabled());
        c.window.leaseAction()->trigger();
        QPointer<LeaseView> view = c.window.leaseView();
        QVERIFY(view);
        QVERIFY(QTest::qWaitForWindowExposed(view));
        QTRY_VERIFY_WITH_TIMEOUT(!view->statusLabel()->text().startsWith(QStringLiteral("Reading")), 30000);
        view->close();
        QTRY_VERIFY(!view);
    }
};

QTEST_MAIN(TestConsoleLease)
#include "tst_consolelease.moc"
