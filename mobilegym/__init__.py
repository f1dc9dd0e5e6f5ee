"""MobileGym."""
