"""The TUI's views (one per mode tab): Call, Ask, Steps, Evaluate."""
