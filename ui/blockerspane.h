#pragma once

#include <QWidget>

class QLabel;
class QTreeView;

namespace LockScope {

class BlockersModel;

// The Blockers view: who waits for whom, the root blockers first with their liveness and what frees each, then the
// deadlocks. It draws; choosing a row shows its lock in the table (the window's selection), where the lock's own
// actions (a guarded force release, a queue repair) are.
class BlockersPane : public QWidget
{
    Q_OBJECT
public:
    explicit BlockersPane(BlockersModel *model, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    BlockersModel *model() const { return m_model; }

signals:
    void lockActivated(const QByteArray &name);

private:
    void updateSummary();

    BlockersModel *m_model;
    QLabel *m_summary;
    QTreeView *m_view;
};

} // namespace LockScope
