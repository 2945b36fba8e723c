"""Forms: parsing and field-level validation. Business rules live in services."""
