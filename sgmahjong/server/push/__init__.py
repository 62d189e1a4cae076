"""Notifications (Web Push with VAPID) and a club's evenings: when they are, who is in, the reminder
and the calendar file (docs/clubs.md, "Evenings and notifications")."""
