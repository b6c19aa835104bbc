"""Printed materials as PDF (reportlab, A4, black and white, German first, English on request). The entry points: ``printing.documents``."""
