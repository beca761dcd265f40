#pragma once

#include "recording/leaseadvisor.h"

#include <QDialog>

#include <thread>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace LockScope {

class LeaseAdviceModel;
class LeaseClientsModel;
class TaskRelay;

// The Lease view (Tools › Lease advice…, docs/recording.md#advise): lockscope-cli advise over the console's recording
// of the last hour. Each lock's hold times against its lease, whether a watchdog kept it, and what to change; the
// selected lock's clients with their renewal rhythm. The recording is read on a thread of the view's own; Refresh,
// the default button, only reads.
class LeaseView : public QDialog
{
    Q_OBJECT
public:
    explicit LeaseView(QString recordingPath, QWidget *parent = nullptr);
    ~LeaseView() override;

    void refresh();
    QComboBox *windowBox() const { return m_window; }
    QPushButton *refreshButton() const { return m_refresh; }
    QTableView *locksView() const { return m_locksView; }
    QTableView *clientsView() const { return m_clientsView; }
    LeaseAdviceModel *locksModel() const { return m_locks; }
    LeaseClientsModel *clientsModel() const { return m_clients; }
    QLabel *statusLabel() const { return m_status; }

signals:
    void advised(); // the advice (or why there is none) is shown

private:
    void showAdvice(const LeaseAdvice &advice, const QString &error);
    void onLockSelected();

    QString m_path;
    QComboBox *m_window;
    QPushButton *m_refresh;
    LeaseAdviceModel *m_locks;
    QSortFilterProxyModel *m_sorted;
    QTableView *m_locksView;
    LeaseClientsModel *m_clients;
    QTableView *m_clientsView;
    QLabel *m_verdicts;
    QLabel *m_status;
    TaskRelay *m_relay;
    std::thread m_worker;
    bool m_refreshPending = false;
};

} // namespace LockScope
