"""A reportlab canvas that writes each page to the output file when the page is finished.

reportlab's own ``PDFDocument`` keeps every page (its uncompressed content stream) until
``save()`` and then builds the whole file as one bytes object. :class:`StreamingCanvas` swaps in
:class:`StreamingDocument`, which writes a finished page and its content stream to the file at
``showPage()`` and keeps only a small stub (the page's name, for the page tree and the cross
reference table). What remains until ``save()`` is per-document, not per-page: the fonts (the
TTF subsets are built from the glyphs used, at the end, as reportlab always does), the page tree,
the catalogue and the cross-reference offsets.

PDF allows objects in any order in the file; the cross-reference table at the end gives each
object's offset, so a page written early may refer to the font dictionary written last.
"""

from __future__ import annotations

from typing import BinaryIO

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen import canvas as rl_canvas


class _Written(pdfdoc.PDFObject):
    """Stands in for an object already in the file: only its name is needed from now on."""

    __RefOnly__ = 1

    def __init__(self, name: str) -> None:
        self.__InternalName__ = name

    def format(self, document):  # pragma: no cover - never formatted twice
        raise RuntimeError(f"{self.__InternalName__} was already written")


class _Out:
    """Counts the bytes written so that objects know their offsets."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.offset = 0

    def add(self, data: bytes | str) -> int:
        data = pdfdoc.pdfdocEnc(data)
        at = self.offset
        self.stream.write(data)
        self.offset += len(data)
        return at


class StreamingDocument(pdfdoc.PDFDocument):
    """A ``PDFDocument`` whose pages go to the file as they are finished."""

    def __init__(self, stream: BinaryIO, **kwargs) -> None:
        super().__init__(**kwargs)
        self._out = _Out(stream)
        self._out.add(
            pdfdoc.pdfdocEnc(f"%PDF-{self._pdfVersion[0]}.{self._pdfVersion[1]}")
            + b"\n%\223\214\213\236 ReportLab Generated PDF document (streamed)\n"
        )
        self._scanned = 0  # object numbers below this were looked at by flush_pages()

    def _write(self, oid: str) -> None:
        obj = self.idToObject[oid]
        formatted = pdfdoc.PDFIndirectObject(oid, obj).format(self)
        self.idToOffset[oid] = self._out.add(formatted)

    def flush_pages(self) -> None:
        """Write every finished page and its content stream; drop them from memory."""
        counter = self._scanned
        pages = self.Pages.pages
        while counter < self.objectcounter:
            counter += 1
            oid = self.numberToId[counter]
            obj = self.idToObject[oid]
            if isinstance(obj, pdfdoc.PDFPage):
                if obj.stream and not obj.Contents:
                    # Deflate only: reportlab's default adds ASCII85 (pure Python, slow, +25 %).
                    contents = pdfdoc.PDFStream(
                        content=obj.stream,
                        filters=[pdfdoc.PDFZCompress] if obj.compression else None,
                    )
                    contents.__Comment__ = "page stream"
                    obj.Contents = contents
                self._write(oid)  # references (numbers) its content stream: written next
                self.idToObject[oid] = _Written(oid)
                for index in range(len(pages) - 1, -1, -1):
                    if pages[index] is obj:
                        pages[index] = self.idToObject[oid]
                        break
                obj.stream = obj.Contents = None
            elif isinstance(obj, pdfdoc.PDFStream) and getattr(
                obj, "__Comment__", ""
            ) == "page stream":
                self._write(oid)
                self.idToObject[oid] = _Written(oid)
        self._scanned = counter

    def format(self) -> bytes:
        """Write what is left (fonts, page tree, catalogue), the xref and the trailer."""
        self.encrypt.prepare(self)
        self.Reference(self.Catalog)
        self.Reference(self.info)
        encrypt_info = self.encrypt.info()
        encrypt_ref = self.Reference(encrypt_info) if encrypt_info else None
        counter = 0
        ids = []
        while True:  # formatting may register new objects: loop until none is left
            counter += 1
            if counter not in self.numberToId:
                break
            oid = self.numberToId[counter]
            if oid not in self.idToOffset:
                self._write(oid)
            ids.append(oid)
        if counter - 1 != len(self.numberToId):
            raise ValueError("PDF object numbering has gaps")
        xref = pdfdoc.PDFCrossReferenceTable()
        xref.addsection(0, ids)
        xref_offset = self._out.add(xref.format(self))
        trailer = pdfdoc.PDFTrailer(
            startxref=xref_offset,
            Size=len(self.numberToId) + 1,
            Root=self.Reference(self.Catalog),
            Info=self.Reference(self.info),
            Encrypt=encrypt_ref,
            ID=self.ID(),
        )
        self._out.add(trailer.format(self))
        return b""

    def SaveToFile(self, filename, canvas) -> None:  # noqa: N802 - reportlab's name
        if getattr(self, "_savedToFile", False):
            raise RuntimeError("a streamed document can only be saved once")
        self._savedToFile = True
        self.GetPDFData(canvas)  # writes to the stream; returns nothing worth keeping

    @property
    def bytes_written(self) -> int:
        return self._out.offset


class StreamingCanvas(rl_canvas.Canvas):
    """``Canvas(stream)`` whose ``showPage()`` writes the page to ``stream`` at once.

    ``stream`` is any binary file object with ``write``; nothing is seeked or read back.
    """

    def __init__(self, stream: BinaryIO, **kwargs) -> None:
        super().__init__(stream, **kwargs)
        self._doc = StreamingDocument(
            stream,
            compression=self._pageCompression,
            invariant=kwargs.get("invariant"),
            pdfVersion=kwargs.get("pdfVersion") or pdfdoc.PDF_VERSION_DEFAULT,
            lang=kwargs.get("lang"),
        )
        self._make_preamble()  # the initial font must be known to the new document

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        super().showPage()
        self._doc.flush_pages()

    def getpdfdata(self):  # noqa: N802 - reportlab's name
        raise NotImplementedError("a streaming canvas writes to its stream; use save()")

    @property
    def bytes_written(self) -> int:
        return self._doc.bytes_written
