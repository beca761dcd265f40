#pragma once

#include "ops/releaseclient.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace LockScope {

// The confirmation before releasing everything one client holds and waits for (the console's release-client): exactly
// the items one pass over the locks found, each with its lock, what it is, the owner, its levels and whether its
// holder looks alive. It keeps the force release dialog's guards: Return never confirms (ConfirmGuard), a production
// server needs the client id typed, and a reason goes into the audit record. An item whose holder looks alive is
// released only once "Even if alive" is ticked: releasing a live holder breaks the exclusion it relies on. What is
// shown is the plan that runs (plan()): a hold taken after the pass is not in it, and stays.
class ReleaseClientDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ReleaseClientDialog(const ClientPlan &plan, QWidget *parent = nullptr);

    // The plan as shown, with the reason typed and whether the person insists on holders that look alive.
    ClientPlan plan() const;
    // A production server: the client id must be typed (as shown) before the button confirms.
    void setProduction(bool production);
    // Whether the confirmation stands: the id typed where production asks for it, "Even if alive" ticked where some
    // item looks alive.
    bool confirmed() const;
    // Why the button does not confirm yet; empty once it does.
    QString whyNot() const;

    // nullptr when the plan is empty: the dialog then only says so, and offers nothing.
    QPushButton *confirmButton() const { return m_confirm; }
    QLineEdit *reasonField() const { return m_reason; }
    QLineEdit *idField() const { return m_id; }
    QCheckBox *evenIfAliveBox() const { return m_evenIfAlive; }
    QTreeWidget *itemsView() const { return m_items; }
    QString text() const { return m_text; }

    static QString whatText(ClientItem::What what);

private:
    void updateConfirm();

    ClientPlan m_plan;
    int m_alive = 0; // the items whose holder looks alive
    bool m_production = false;
    QString m_shownId; // the client id as shown: what production needs typed
    QString m_text;
    QTreeWidget *m_items;
    QLineEdit *m_reason;
    QLabel *m_idLabel;
    QLineEdit *m_id;
    QCheckBox *m_evenIfAlive;
    QLabel *m_why;
    QPushButton *m_confirm = nullptr;
};

} // namespace LockScope
